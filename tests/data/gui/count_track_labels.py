#!/usr/bin/env python3
"""Independent count of the track labels the timeline draws for a Chrome/Kineto JSON trace when
every row fits: one header per group plus one label per row.

Groups: each process (pid) with CPU slices; each GPU device; "Global" when there are global
instants. Rows: each CPU thread (pid, tid) with slices; per device one "GPU idle" row plus one row
per stream, and one "Memory" row when PyTorch's `[memory]` events (Device Type other than 0, the
CPU) name the device; one "Instants" row for global instants. Usage: count_track_labels.py TRACE[.gz]"""
import gzip
import json
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"}

path = sys.argv[1]
opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
doc = json.load(opener(path, "rt"))
events = doc["traceEvents"] if isinstance(doc, dict) else doc
threads, devices, streams, global_instants = set(), set(), set(), False
memory_devices = set()
for e in events:
    ph = e.get("ph")
    if ph == "X":
        if e.get("cat") in GPU_CATS:
            dev = e.get("args", {}).get("device", e.get("pid"))
            devices.add(dev)
            streams.add((dev, e.get("args", {}).get("stream", e.get("tid"))))
        else:
            threads.add((e.get("pid"), e.get("tid")))
    elif ph in ("i", "I") and e.get("s") == "g":
        global_instants = True
    elif ph in ("i", "I") and e.get("name") == "[memory]":
        a = e.get("args", {})
        if a.get("Device Type", 1) != 0:
            memory_devices.add(a.get("Device Id", 0))
groups = len({p for p, _ in threads}) + len(devices) + (1 if global_instants else 0)
rows = len(threads) + len(devices) + len(streams) + (1 if global_instants else 0)
rows += len(memory_devices & devices)
print(groups + rows)
