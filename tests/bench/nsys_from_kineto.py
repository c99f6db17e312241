#!/usr/bin/env python3
"""Writes the events of a Chrome/Kineto trace as an Nsight Systems SQLite export (the tables and
columns nsys 2023 writes), for a like-for-like load benchmark of the two readers: every complete
event once, CPU ops and annotations as NVTX push/pop ranges, runtime and driver calls, kernels,
copies and sets with their correlation ids (docs/performance.md, issue 47).

  python3 tests/bench/nsys_from_kineto.py TRACE.json[.gz] OUT.sqlite [--copies N]

--copies N writes the events N times, each copy shifted in time and its correlation ids offset as
scale_trace.py --copies N shifts them: the same events as that scaled JSON (a 1 GB export).
"""
import gzip
import json
import os
import sqlite3
import sys


def load(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open if gz else open)(path, "rt") as f:
        d = json.load(f)
    return d["traceEvents"] if isinstance(d, dict) else d


def main():
    events, out = load(sys.argv[1]), sys.argv[2]
    copies = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--copies" else 1
    if os.path.exists(out):
        os.remove(out)
    c = sqlite3.connect(out)
    c.executescript("""
      CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);
      CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);
      CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass INTEGER,
        globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER,
        contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
        demangledName INTEGER, shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
        blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
        staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, deviceId INTEGER,
        contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
        bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
      CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER, deviceId INTEGER,
        contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
        value INTEGER, bytes INTEGER, memKind INTEGER);
      CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT,
        globalTid INTEGER, textId INTEGER, domainId INTEGER);
      INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', 'bench');
    """)
    ids = {}

    def sid(s):
        if s not in ids:
            ids[s] = len(ids) + 1
        return ids[s]

    rows = {"rt": [], "k": [], "cp": [], "ms": [], "nv": []}
    for e in events:
        if e.get("ph") != "X" or "dur" not in e:
            continue
        ts, end = int(float(e["ts"]) * 1000), int((float(e["ts"]) + float(e["dur"])) * 1000)
        a, cat = e.get("args", {}), e.get("cat", "")
        pid = int(e["pid"]) if str(e.get("pid", "0")).lstrip("-").isdigit() else 0
        tid = int(e["tid"]) if str(e.get("tid", "0")).lstrip("-").isdigit() else 0
        gtid = ((pid & 0xFFFFFF) << 24) | (tid & 0xFFFFFF)
        corr = a.get("correlation", -1)
        if cat in ("cuda_runtime", "cuda_driver"):
            rows["rt"].append((ts, end, 1, gtid, corr, sid(e["name"]), 0))
        elif cat == "kernel":
            g, b = a.get("grid", [0, 0, 0]), a.get("block", [0, 0, 0])
            rows["k"].append((ts, end, a.get("device", 0), 1, a.get("stream", 0), corr, 0,
                              sid(e["name"]), sid(e["name"]), *g, *b,
                              a.get("registers per thread", 0), 0, 0, None))
        elif cat == "gpu_memcpy":
            rows["cp"].append((ts, end, a.get("device", 0), 1, a.get("stream", 0), corr, 0,
                               a.get("bytes", 0), 1, 1, 3))
        elif cat == "gpu_memset":
            rows["ms"].append((ts, end, a.get("device", 0), 1, a.get("stream", 0), corr, 0, 0,
                               a.get("bytes", 0), 3))
        else:
            rows["nv"].append((ts, end, 59, e["name"], gtid, None, 0))
    c.executemany("INSERT INTO StringIds VALUES (?, ?)", [(i, s) for s, i in ids.items()])
    # scale_trace.py's shift: the span of the timed events (us) * 1.01 + 1; ids + k * 10^7.
    timed = [e for e in events if e.get("ph") != "M" and isinstance(e.get("ts"), (int, float))]
    t0 = min(e["ts"] for e in timed)
    t1 = max(e["ts"] + (e["dur"] if isinstance(e.get("dur"), (int, float)) else 0) for e in timed)
    span_ns = int(((t1 - t0) * 1.01 + 1) * 1000)
    tables = [("rt", "CUPTI_ACTIVITY_KIND_RUNTIME", 7, 4), ("k", "CUPTI_ACTIVITY_KIND_KERNEL", 19, 5),
              ("cp", "CUPTI_ACTIVITY_KIND_MEMCPY", 11, 5), ("ms", "CUPTI_ACTIVITY_KIND_MEMSET", 10, 5),
              ("nv", "NVTX_EVENTS", 7, None)]
    for k in range(copies):
        dt, di = k * span_ns, k * 10 ** 7
        for key, table, n, corr in tables:
            def moved(r):
                r = list(r)
                r[0] += dt
                r[1] += dt
                if corr is not None and isinstance(r[corr], int) and r[corr] > 0:
                    r[corr] += di
                return r
            c.executemany("INSERT INTO %s VALUES (%s)" % (table, ",".join("?" * n)),
                          (moved(r) for r in rows[key]) if k else rows[key])
    c.commit()
    print(json.dumps({k: len(v) * copies for k, v in rows.items()}))


if __name__ == "__main__":
    main()
