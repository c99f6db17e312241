#!/usr/bin/env python3
"""Independent expectations for the real traces in ../shared/traces (tst_json_real_traces).

Re-run from the repository root:
    python3 tests/data/json/real_traces_expected.py ../shared/traces > tests/data/json/real_traces_expected.json

Plain json + decimal, nothing from Strata. For every *.json / *.gz trace it counts X events that
have a numeric ts and a non-negative numeric dur (numbers or numeric strings), by category
(kernel, gpu_memcpy, gpu_memset), and sums kernel durations in integer nanoseconds: the decimal
text of dur in microseconds times 1000, rounded half to even (parse_float=Decimal keeps every digit).
"""
import gzip
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_EVEN, InvalidOperation


def to_ns(v):
    if isinstance(v, bool) or v is None:
        return None
    try:
        d = Decimal(v) if isinstance(v, str) else Decimal(v)
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    return int((d * 1000).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def main(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not (name.endswith(".json") or name.endswith(".gz")):
            continue
        raw = open(path, "rb").read()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        doc = json.loads(raw, parse_float=Decimal, parse_int=Decimal)
        events = doc["traceEvents"] if isinstance(doc, dict) else doc
        counts = {"x_events": 0, "kernel": 0, "gpu_memcpy": 0, "gpu_memset": 0, "kernel_ns": 0}
        for e in events:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            ts, dur = to_ns(e.get("ts")), to_ns(e.get("dur"))
            if ts is None or dur is None or dur < 0:
                continue
            counts["x_events"] += 1
            cat = e.get("cat")
            if cat in ("kernel", "gpu_memcpy", "gpu_memset"):
                counts[cat] += 1
            if cat == "kernel":
                counts["kernel_ns"] += dur
        counts["devices"] = len(doc.get("deviceProperties", [])) if isinstance(doc, dict) else 0
        out[name] = counts
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/traces")
