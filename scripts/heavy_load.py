#!/usr/bin/env python3
"""The heaviest requests the server accepts, at once, against a running Fabric Planner on
loopback: 16 clients download the hand-off files of the largest design whose hand-off is
accepted (239,704 cables), 4 clients run the largest search the API accepts (about 250,000
fabric evaluations over a million candidates), and one client views a design page every half
second. Prints the server's resident memory over the run, the page views' latency and the
answers by status, and exits 1 on any 5xx other than 503, on a resident memory of 1 GiB or
more, or on a page view slower than a second.

Usage: scripts/heavy_load.py BASE_URL SERVER_PID [SECONDS]
e.g.   scripts/heavy_load.py http://127.0.0.1:3997 "$(pgrep -f 'fabric-planner serve')" 120

Run the server with the per-client limits off, as the soak does (one address drives it)."""

import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

BASE, PID = sys.argv[1].rstrip("/"), int(sys.argv[2])
SECONDS = float(sys.argv[3]) if len(sys.argv) > 3 else 120
assert BASE.startswith("http://127.") or BASE.startswith("http://[::1]"), "loopback only"

lock = threading.Lock()
statuses = Counter()
views = []
stop = time.time() + SECONDS


def request(method, path, body=None, timeout=120):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except Exception as e:
        return f"error:{type(e).__name__}", b""


def largest_handoff():
    """The largest design whose hand-off files are written: 29,000 nodes of one NIC on 400GbE
    RoCE, with its storage fabric: 239,704 cables, under the 250,000 the files hold."""
    spec = json.load(open("examples/seventy-b-training.json"))
    nodes = 29000
    spec["title"] = "Largest hand-off"
    spec["cluster"]["nodes"] = nodes
    spec["cluster"]["nics_per_node"] = 1
    spec["workloads"][0]["parallelism"]["dp"] = nodes
    spec["workloads"][0]["global_batch"] = nodes
    spec["workloads"][1]["samples_per_step"] = nodes
    for f in spec["fabrics"]:
        f["technology"], f["switch"], f["extra_endpoints"] = "roce400", "tomahawk6", 0
    return spec


def largest_search():
    """The hybrid design over every technology, switch model, topology and arrangement, four
    sixteen leaf and two spine oversubscriptions and twelve NIC counts: 233,856 of the 250,000
    fabric evaluations a search may make, a million candidates sampled."""
    return {
        "base": json.load(open("examples/hybrid.json")),
        "freedoms": {
            "technologies": ["ib_ndr", "ib_xdr", "roce100", "roce200", "roce400", "roce800",
                             "tcp25", "tcp100"],
            "switch_models": True,
            "topologies": ["two_tier", "three_tier", "rail_optimized"],
            "leaf_oversubscription": list(range(1, 17)),
            "spine_oversubscription": [1, 2],
            "nics_per_node": list(range(1, 13)),
            "arrangements": ["as_designed", "shared", "separate"],
        },
        "max_candidates": 1000000,
    }


def created(spec):
    status, body = request("POST", "/api/designs", {"spec": spec})
    assert status == 201, (status, body[:500])
    return json.loads(body)["id"]


def resident_kb():
    for line in open(f"/proc/{PID}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def count(status):
    with lock:
        statuses[status] += 1


def handoff_client(paths):
    while time.time() < stop:
        status, _ = request("GET", random.choice(paths))
        count(status)


def search_client(body):
    while time.time() < stop:
        status, text = request("POST", "/api/search", body)
        count(status)
        if status == 422:
            print("the search was refused:", text[:300], file=sys.stderr)
            return


def viewer(path):
    while time.time() < stop:
        started = time.time()
        status, _ = request("GET", path)
        with lock:
            views.append(time.time() - started)
        count(status)
        time.sleep(0.5)


def main():
    big = created(largest_handoff())
    small = created(json.load(open("examples/seventy-b-training.json")))
    base = f"/d/{big}/r/1/handoff"
    files = ["README.txt", "cvt/compute-p2p.csv", "netbox/cables.csv", "netbox/devices.csv",
             "netbox/interfaces.csv", "slurm/topology.conf", "kubernetes/node-labels.yaml",
             "graphviz/compute.dot", "avd/compute.yml"]
    paths = [f"{base}/{f}" for f in files] + [f"{base}.zip"]
    request("GET", f"/d/{small}")  # the page is kept from its first view
    threads = [threading.Thread(target=handoff_client, args=(paths,)) for _ in range(16)]
    threads += [threading.Thread(target=search_client, args=(largest_search(),)) for _ in range(4)]
    threads.append(threading.Thread(target=viewer, args=(f"/d/{small}",)))
    for t in threads:
        t.start()
    memory = []
    while time.time() < stop:
        memory.append(resident_kb())
        time.sleep(1)
    for t in threads:
        t.join()
    print("answers:", dict(sorted(statuses.items(), key=str)))
    mib = [m // 1024 for m in memory]
    print(f"resident MiB: start {mib[0]}, most {max(mib)}, end {mib[-1]}; every 10 s: {mib[::10]}")
    views.sort()
    print(f"page views: {len(views)}, median {views[len(views) // 2] * 1000:.0f} ms, "
          f"slowest {views[-1] * 1000:.0f} ms")
    failed = [s for s in statuses if isinstance(s, str) or (s >= 500 and s != 503)]
    if failed or max(mib) >= 1024 or views[-1] >= 1.0:
        print("FAILED:", failed, max(mib), views[-1])
        return 1
    return 0


sys.exit(main())
