#!/usr/bin/env python3
"""Steps nest as the user means them (issue 28): for every CPU `ProfilerStep#N` of a real trace,
its self time and the GPU ops launched inside it, computed here from the raw JSON (timestamps as
decimals, exact to the ns), against `strata-cli stats --json` (its CPU ops table).

The rule, written independently of Strata: Python frames that cross the step at an edge (start
before it and end inside its first half, or start in its second half and end after it) are not
part of it, nor is anything inside such a frame. The step's children are the outermost of the
remaining slices of its thread that lie inside it; self = its duration minus theirs; the GPU ops
launched inside it are the kernels, copies and sets whose launch call (cuda_runtime/cuda_driver,
by correlation id) is one of those remaining slices. Exit 0 when equal, 1 with what differs, 77
when the trace is absent."""
import gzip, json, os, subprocess, sys
from decimal import Decimal

def ns(x):
    return int(Decimal(str(x)) * 1000)

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d

def expected(events):
    xs = [e for e in events if e.get("ph") == "X" and "dur" in e and "ts" in e]
    threads = {}
    for e in xs:
        threads.setdefault((e.get("pid"), e.get("tid")), []).append(e)
    gpu = {}
    for e in xs:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            c = e.get("args", {}).get("correlation")
            if c is not None:
                gpu.setdefault(c, []).append(ns(e["dur"]))
    out = {}
    for evs in threads.values():
        iv = [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e) for e in evs]
        for a0, a1, a in iv:
            if a.get("cat") != "user_annotation" or not a["name"].startswith("ProfilerStep#"):
                continue
            half = (a1 - a0) / 2
            cross = [(s, t) for s, t, e in iv if e.get("cat") == "python_function" and
                     ((s < a0 < t < a1 and t - a0 < half) or (a0 < s < a1 < t and a1 - s < half))]
            def in_cross(s, t):
                return any(cs <= s and t <= ct for cs, ct in cross)
            inside = sorted([(s, t, e) for s, t, e in iv if e is not a and a0 <= s and t <= a1
                             and not in_cross(s, t)], key=lambda x: (x[0], -(x[1] - x[0])))
            kids, end = [], None
            for s, t, e in inside:
                if end is None or s >= end:
                    kids.append((s, t))
                    end = t
            corr = {e["args"]["correlation"] for s, t, e in inside
                    if e.get("cat") in ("cuda_runtime", "cuda_driver")
                    and "correlation" in e.get("args", {})}
            ops = [d for c in corr for d in gpu.get(c, [])]
            out[a["name"]] = {"self_ns": (a1 - a0) - sum(t - s for s, t in kids),
                              "gpu_ops": len(ops), "gpu_ns": sum(ops)}
    return out

def main():
    cli, trace = sys.argv[1], sys.argv[2]
    if not os.path.exists(trace):
        print(f"skipped: {trace} is absent")
        return 77
    want = expected(load(trace))
    got = json.loads(subprocess.run([cli, "stats", "--json", "--top", "1000000", trace],
                                    check=True, capture_output=True).stdout)
    rows = {r["name"]: r for r in got["cpu_ops"]}
    problems = []
    for name, w in sorted(want.items()):
        r = rows.get(name)
        if r is None:
            problems.append(f"{name}: not in the CPU ops table")
            continue
        if round(r["self_us"] * 1000) != w["self_ns"]:
            problems.append(f"{name}: self {r['self_us']} us, expected {w['self_ns'] / 1000} us")
        if r["gpu_ops"] != w["gpu_ops"] or round(r["gpu_us"] * 1000) != w["gpu_ns"]:
            problems.append(f"{name}: {r['gpu_ops']} GPU ops, {r['gpu_us']} us; expected "
                            f"{w['gpu_ops']}, {w['gpu_ns'] / 1000} us")
    for p in problems:
        print("differs:", p)
    for name, w in sorted(want.items())[:5]:
        print(f"{name}: self {w['self_ns'] / 1000} us, {w['gpu_ops']} GPU ops, "
              f"{w['gpu_ns'] / 1000} us")
    print(f"{os.path.basename(trace)}: {len(want)} steps checked")
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
