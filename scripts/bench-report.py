#!/usr/bin/env python3
"""Times the design report of a DGX SuperPOD-like 4-SU design against a running server:
the PDF typeset from scratch (each design's first request), the report page rendered from
scratch and from memory, and the server's resident memory while 8 PDFs are typeset at once.

    target/release/fabric-planner serve --addr 127.0.0.1:3998 --database /tmp/bench.db \
        --writes-per-minute 0 &
    scripts/bench-report.py http://127.0.0.1:3998 $!
"""

import json
import statistics
import sys
import threading
import time
import urllib.request

BASE = sys.argv[1].rstrip("/")
PID = int(sys.argv[2])
SPEC = json.load(open("examples/superpod-4su.json"))


def create(title):
    spec = dict(SPEC, title=title)
    body = json.dumps({"spec": spec}).encode()
    request = urllib.request.Request(
        f"{BASE}/api/designs", data=body, headers={"content-type": "application/json"}
    )
    return json.load(urllib.request.urlopen(request))["id"]


def timed_get(path):
    started = time.perf_counter()
    with urllib.request.urlopen(f"{BASE}{path}") as response:
        body = response.read()
        assert response.status == 200, path
    return time.perf_counter() - started, len(body)


def rss_mib():
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def summary(label, seconds):
    ms = sorted(s * 1000 for s in seconds)
    print(
        f"{label}: n={len(ms)} median {statistics.median(ms):.1f} ms, "
        f"min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms"
    )


designs = [create(f"SuperPOD bench {time.time_ns()} {i}") for i in range(12)]
timed_get(f"/d/{designs[0]}/r/1/report.pdf")  # warm the fonts and the template once

pdf = []
for design in designs[1:]:
    seconds, size = timed_get(f"/d/{design}/r/1/report.pdf")
    pdf.append(seconds)
summary(f"PDF, typeset ({size} bytes)", pdf)
summary("PDF, kept", [timed_get(f"/d/{designs[1]}/r/1/report.pdf")[0] for _ in range(20)])

fresh = [timed_get(f"/d/{d}/r/1/report")[0] for d in designs[1:]]
summary("report page, rendered", fresh)
summary("report page, kept", [timed_get(f"/d/{designs[1]}/r/1/report")[0] for _ in range(50)])

print(f"RSS before: {rss_mib():.0f} MiB")
peaks = []
for round_ in range(4):
    batch = [create(f"SuperPOD memory {round_} {i} {time.time_ns()}") for i in range(8)]
    peak = [0.0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib())
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    threads = [
        threading.Thread(target=timed_get, args=(f"/d/{d}/r/1/report.pdf",)) for d in batch
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    sampler.join()
    peaks.append(peak[0])
    print(
        f"round {round_ + 1}: 8 PDFs at once in {time.perf_counter() - started:.2f} s, "
        f"peak RSS {peak[0]:.0f} MiB, after {rss_mib():.0f} MiB"
    )
