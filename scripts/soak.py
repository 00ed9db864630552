#!/usr/bin/env python3
"""Soak test of a running Fabric Planner on loopback: mixed valid, invalid and hostile requests
(design searches and hand-off downloads among them) from many threads for a bounded time, then a
check that every acknowledged save is stored.

Usage: scripts/soak.py BASE_URL SERVER_PID [SECONDS] [THREADS]
e.g.   scripts/soak.py http://127.0.0.1:3000 "$(pgrep -f 'fabric-planner serve')" 600 32

Prints requests by status, the server's resident memory over time, and exits 1 on any 5xx
(other than 503 shed at the concurrency limit) or any acknowledged save that is missing.
Only loopback addresses are accepted."""

import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

BASE, PID = sys.argv[1].rstrip("/"), int(sys.argv[2])
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 600
THREADS = int(sys.argv[4]) if len(sys.argv) > 4 else 32
assert BASE.startswith("http://127.") or BASE.startswith("http://[::1]"), "loopback only"

EXAMPLE = json.load(open("examples/seventy-b-training.json"))
# A search near the server's budget of fabric evaluations (as scripts/heavy_load.py runs it).
LARGE_SEARCH = {
    "base": json.load(open("examples/hybrid.json")),
    "freedoms": {"technologies": ["ib_ndr", "roce400", "roce800", "tcp100"], "switch_models": True,
                 "leaf_oversubscription": [1, 2, 3, 4], "nics_per_node": [2, 4, 8],
                 "arrangements": ["as_designed", "shared", "separate"]},
    "max_candidates": 200000,
}
HOSTILE = ["<script>alert(1)</script>", "'; DROP TABLE designs; --", "=HYPERLINK(\"x\")",
           "\u0000\n\r", "#set page(width: 1pt)", "{{ x }}"]

lock = threading.Lock()
statuses = Counter()
acknowledged = []  # (api id, key, revision number)
failures = []


def request(method, path, body=None, headers=None, content_type="application/json"):
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except Exception as e:  # connection reset while shed, timeouts
        return f"error:{type(e).__name__}", b""


def spec(title):
    s = json.loads(json.dumps(EXAMPLE))
    s["title"] = title[:190]
    s["cluster"]["nodes"] = random.choice([16, 32, 64])
    s["workloads"][0]["parallelism"]["dp"] = s["cluster"]["nodes"]
    s["workloads"][0]["global_batch"] = s["cluster"]["nodes"] * 32
    return s


def one():
    kind = random.random()
    if kind < 0.15:
        status, body = request("POST", "/api/designs", {"spec": spec(random.choice(HOSTILE)), "note": random.choice(HOSTILE)})
        if status == 201:
            answer = json.loads(body)
            with lock:
                acknowledged.append((answer["id"], answer["edit_key"], 1))
        return status
    if kind < 0.25 and acknowledged:
        with lock:
            design_id, key, _ = random.choice(acknowledged)
        status, body = request("POST", f"/api/designs/{design_id}/revisions", {"spec": spec("revised")},
                               headers={"Authorization": f"Bearer {key}"})
        if status == 201:
            with lock:
                acknowledged.append((design_id, key, json.loads(body)["revision"]))
        return status
    if kind < 0.35:
        return request("POST", "/api/evaluate", {"schema_version": 2, "title": "x", "cluster": {"nodes": -4}})[0]
    if kind < 0.45:
        return request("POST", "/api/designs", b"{\"spec\": ", content_type="text/plain")[0]
    if kind < 0.5:
        return request("POST", "/fn/save_design", {"spec": spec("cross-site")}, headers={"Origin": "https://evil.example"})[0]
    if kind < 0.6:
        return request("POST", "/api/evaluate", spec("evaluate"))[0]
    if kind < 0.64:
        # A design search: the default question on a design, or a large request.
        body = spec("search") if random.random() < 0.7 else LARGE_SEARCH
        return request("POST", "/api/search", body)[0]
    if kind < 0.72 and acknowledged:
        with lock:
            design_id, _, n = random.choice(acknowledged)
        path = random.choice(["", ".zip", "/README.txt", "/cvt/compute-p2p.csv", "/netbox/cables.csv",
                              "/slurm/topology.conf", "/kubernetes/node-labels.yaml", "/avd/storage.yml",
                              "/no-such-file"])
        return request("GET", f"/d/{design_id}/r/{n}/handoff{path}")[0]
    if acknowledged:
        with lock:
            design_id, _, n = random.choice(acknowledged)
        path = random.choice([f"/d/{design_id}", f"/d/{design_id}/r/{n}/report", f"/d/{design_id}/r/{n}/bom.csv",
                              f"/d/{design_id}/r/{n}/cabling.csv", f"/d/{design_id}/r/{n}/report.pdf",
                              f"/api/designs/{design_id}/revisions", "/designs", "/d/zzzz", "/d/%00/r/x"])
        return request("GET", path)[0]
    return request("GET", "/")[0]


def worker(deadline):
    while time.time() < deadline:
        status = one()
        with lock:
            statuses[status] += 1


def resident_mib():
    for line in open(f"/proc/{PID}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return -1


deadline = time.time() + SECONDS
threads = [threading.Thread(target=worker, args=(deadline,)) for _ in range(THREADS)]
for t in threads:
    t.start()
memory = []
while any(t.is_alive() for t in threads):
    memory.append(resident_mib())
    time.sleep(min(10, max(1, SECONDS / 60)))
for t in threads:
    t.join()

missing = 0
for design_id, _, n in acknowledged:
    status, _ = request("GET", f"/api/designs/{design_id}/revisions/{n}")
    missing += status != 200
server_errors = sum(c for s, c in statuses.items() if isinstance(s, int) and s >= 500 and s != 503)
print(f"requests: {sum(statuses.values())} in {SECONDS:.0f} s with {THREADS} threads")
print("by status:", dict(sorted(statuses.items(), key=lambda kv: str(kv[0]))))
print(f"acknowledged saves: {len(acknowledged)}, missing afterwards: {missing}")
print(f"server resident MiB, first/last quarter max: {max(memory[:len(memory)//4 or 1])} / {max(memory[-(len(memory)//4 or 1):])}; all: {memory}")
print(f"5xx other than 503: {server_errors}")
sys.exit(1 if server_errors or missing else 0)
