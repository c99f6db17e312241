#!/usr/bin/env python3
"""What a PyTorch profiler trace's `[memory]` events say, computed independently of Strata: per
device (Kineto's "Device Id"; Device Type 0, the CPU, as device -1) the number of events and the
largest "Total Allocated" and "Total Reserved". Prints JSON {"<device>": {"events", "peak_allocated",
"peak_reserved"}}."""
import gzip, json, sys

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    d = json.load(f)
events = d["traceEvents"] if isinstance(d, dict) else d
out = {}
for e in events:
    if e.get("ph") not in ("i", "I") or e.get("name") != "[memory]":
        continue
    a = e.get("args", {})
    device = -1 if a.get("Device Type", 1) == 0 else a.get("Device Id", 0)
    s = out.setdefault(str(device), {"events": 0, "peak_allocated": 0, "peak_reserved": 0})
    s["events"] += 1
    s["peak_allocated"] = max(s["peak_allocated"], a["Total Allocated"])
    s["peak_reserved"] = max(s["peak_reserved"], a.get("Total Reserved", 0))
print(json.dumps(out))
