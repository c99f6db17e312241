#!/usr/bin/env python3
"""HTA's idle breakdown and launch queue (issue 46) computed from a Chrome/Kineto JSON trace's raw
events, with no code of Strata's, and compared with `strata-cli idle --json`.

The rule, as HolisticTraceAnalysis states it (hta/analyzers/breakdown_analysis.py,
get_idle_time_breakdown; hta/analyzers/trace_counters.py, get_queue_length_time_series) and
docs/analysis.md ("HTA's idle breakdown and launch queue") writes it down:
  ops         events with cat kernel, gpu_memcpy or gpu_memset (or Kernel, Memcpy, Memset), per
              (args.device, args.stream), stream -1 left out, ordered by (start, end)
  idle        for each op after a stream's first: interval = start - previous op's end;
              host wait when the op's launch call (the cuda_runtime / cuda_driver / hip_runtime
              event with its args.correlation) started after that end; else kernel wait when
              interval < the delay (30 us); else other
  queue       +1 at the start of the CPU event with the op's correlation whose name is one of
              HTA's launch calls, -1 at the op's start; sorted by time, starts before launches
              at equal times; the length after each change; max; the time to the next point
              summed over the points at the max, and over the points at >= the limit
Times are integer nanoseconds (the trace's microseconds with three decimals), so the figures
are exact; strata-cli's are compared to the nanosecond.

usage: expected_idle_breakdown.py [--check STRATA_CLI] [--queue-limit N] TRACE
Exit 0 when equal, 1 with the differences, 77 when the trace is absent.
"""
import argparse
import json
import os
import subprocess
import sys

from exact_trace import load, ns

GPU_CATEGORIES = ("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset")
LAUNCH_CATEGORIES = ("cuda_runtime", "hip_runtime", "Runtime", "cuda_driver", "hip_driver",
                     "Driver")
QUEUE_LAUNCH_NAMES = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
    "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
    "runFunction - job_prep_and_submit_for_execution",
}
KERNEL_DELAY_NS = 30000






def as_int(value, default):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def gpu_ops(events):
    streams = {}
    for ev in events:
        if ev.get("ph") != "X" or ev.get("cat") not in GPU_CATEGORIES:
            continue
        args = ev.get("args") or {}
        stream = as_int(args.get("stream", ev.get("tid")), -1)
        if stream == -1:
            continue
        device = as_int(args.get("device", ev.get("pid")), -1)
        start = ns(ev["ts"])
        end = start + max(ns(ev.get("dur", 0)), 0)
        streams.setdefault((device, stream), []).append((start, end, args.get("correlation")))
    for ops in streams.values():
        ops.sort(key=lambda o: (o[0], o[1]))
    return streams


def launches(events):
    """correlation -> start of its launch API call; correlation -> start of HTA's listed call."""
    api, listed = {}, {}
    for ev in events:
        if ev.get("ph") != "X" or ev.get("cat") in GPU_CATEGORIES:
            continue
        corr = (ev.get("args") or {}).get("correlation")
        if corr is None or as_int(corr, -1) < 0:
            continue
        if ev.get("cat") in LAUNCH_CATEGORIES:
            api.setdefault(corr, ns(ev["ts"]))
        if ev.get("name") in QUEUE_LAUNCH_NAMES:
            listed.setdefault(corr, ns(ev["ts"]))
    return api, listed


def idle(ops, api):
    out = {"host_wait": 0, "kernel_wait": 0, "other": 0, "host_wait_intervals": 0,
           "kernel_wait_intervals": 0, "other_intervals": 0, "without_launch": 0}
    for (prev, op) in zip(ops, ops[1:]):
        prev_end = prev[1]
        interval = op[0] - prev_end
        launch = api.get(op[2])
        if launch is None:
            out["without_launch"] += 1
        if launch is not None and launch > prev_end:
            kind = "host_wait"
        elif interval < KERNEL_DELAY_NS:
            kind = "kernel_wait"
        else:
            kind = "other"
        out[kind] += interval
        out[kind + "_intervals"] += 1
    return out


def queue(ops, listed, limit):
    changes = []
    for start, _end, corr in ops:
        if corr in listed:
            changes.append((listed[corr], +1))
            changes.append((start, -1))
    changes.sort()  # (time, -1) before (time, +1)
    series, length = [], 0
    for time, delta in changes:
        length += delta
        series.append((time, length))
    top = max((l for _, l in series), default=0)
    at_max = sum(b[0] - a[0] for a, b in zip(series, series[1:]) if a[1] == top)
    at_limit = sum(b[0] - a[0] for a, b in zip(series, series[1:]) if a[1] >= limit)
    return {"launches": len(changes) // 2, "max_length": max(top, 0), "time_at_max": at_max,
            "time_at_limit": at_limit, "series": series}


def expected(events, limit):
    streams = gpu_ops(events)
    api, listed = launches(events)
    out = {}
    for key, ops in sorted(streams.items()):
        out[key] = {"ops": len(ops), "idle": idle(ops, api), "queue": queue(ops, listed, limit)}
    not_launched = sum(1 for ops in streams.values() for o in ops if o[2] not in listed)
    return out, not_launched


def to_ns(us):
    return int(round(us * 1000))


def compare(key, want, have, errors):
    where = f"device {key[0]} stream {key[1]}"
    if have["ops"] != want["ops"]:
        errors.append(f"{where} ops: strata {have['ops']}, expected {want['ops']}")
    wi, hi = want["idle"], have["idle"]
    if have["without_launch"] != wi["without_launch"]:
        errors.append(f"{where} without_launch: strata {have['without_launch']}, "
                      f"expected {wi['without_launch']}")
    for k in ("host_wait", "kernel_wait", "other"):
        if to_ns(hi[k + "_us"]) != wi[k]:
            errors.append(f"{where} {k}: strata {to_ns(hi[k + '_us'])} ns, expected {wi[k]} ns")
        if hi[k + "_intervals"] != wi[k + "_intervals"]:
            errors.append(f"{where} {k}_intervals: strata {hi[k + '_intervals']}, "
                          f"expected {wi[k + '_intervals']}")
    wq, hq = want["queue"], have["queue"]
    for k in ("launches", "max_length"):
        if hq[k] != wq[k]:
            errors.append(f"{where} queue {k}: strata {hq[k]}, expected {wq[k]}")
    for k in ("time_at_max", "time_at_limit"):
        if to_ns(hq[k + "_us"]) != wq[k]:
            errors.append(f"{where} queue {k}: strata {to_ns(hq[k + '_us'])} ns, "
                          f"expected {wq[k]} ns")
    hs, ws = hq["series"], wq["series"]
    if len(hs) != len(ws):
        errors.append(f"{where} series: strata {len(hs)} points, expected {len(ws)}")
    elif ws:
        # Strata's times are from the trace start: compare each point's offset from the first.
        for i, ((ht, hl), (wt, wl)) in enumerate(zip(hs, ws)):
            offset = to_ns(ht) - to_ns(hs[0][0])
            if offset != wt - ws[0][0] or hl != wl:
                errors.append(f"{where} series point {i}: strata ({offset} ns, {hl}), "
                              f"expected ({wt - ws[0][0]} ns, {wl})")
                break


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check", metavar="STRATA_CLI")
    p.add_argument("--queue-limit", type=int, default=1024)
    p.add_argument("trace")
    a = p.parse_args()
    if not os.path.exists(a.trace):
        print(f"skipped: {a.trace} is absent")
        return 77
    want, not_launched = expected(load(a.trace), a.queue_limit)
    if not a.check:
        for key, w in want.items():
            w["queue"]["series"] = len(w["queue"]["series"])
            print(key, json.dumps(w, sort_keys=True))
        print("not_launched", not_launched)
        return 0
    got = json.loads(subprocess.run([a.check, "idle", "--json", "--queue-limit",
                                     str(a.queue_limit), a.trace],
                                    check=True, capture_output=True, text=True).stdout)
    have = {(s["device"], s["stream"]): s for s in got["streams"]}
    errors = []
    if sorted(have) != sorted(want):
        errors.append(f"streams: strata {sorted(have)}, expected {sorted(want)}")
    if got["not_launched"] != not_launched:
        errors.append(f"not_launched: strata {got['not_launched']}, expected {not_launched}")
    for key, w in want.items():
        if key in have:
            compare(key, w, have[key], errors)
    for e in errors:
        print(e)
    n = sum(w["ops"] for w in want.values())
    print(f"{a.trace} (queue limit {a.queue_limit}): {len(want)} streams, {n} ops: "
          f"{'equal' if not errors else str(len(errors)) + ' differences'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
