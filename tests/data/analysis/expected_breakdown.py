#!/usr/bin/env python3
"""The GPU time breakdown (issue 46) computed from a Chrome/Kineto JSON trace's raw events, with
no code of Strata's, and compared with `strata-cli breakdown --json`.

The rule, as TraceLens's GPU timeline states it (TraceLens/TreePerf/gpu_event_analyser.py) and
docs/analysis.md ("GPU time breakdown") writes it down:
  GPU ops       events with cat kernel, gpu_memcpy or gpu_memset, per device (args.device);
                --ops linked: only those whose args.correlation is the correlation of a
                cuda_runtime / cuda_driver (or hip_runtime) event
  buckets       memcpy: gpu_memcpy, and kernels named as ROCm's copy kernels; communication:
                kernels whose lower-cased name holds a collective's marker; computation: the
                rest (sets included)
  figures       each bucket's union; exposed comm = comm - computation; exposed memcpy =
                memcpy - computation - comm; busy = union of all; total = last end - first
                start; idle = total - busy
Times are integer nanoseconds (the trace's microseconds with three decimals), so the figures
are exact; strata-cli's are compared to the nanosecond.

usage: expected_breakdown.py [--check STRATA_CLI] TRACE [--ops all|linked]
Exit 0 when equal, 1 with the differences, 77 when the trace is absent.
"""
import argparse
import json
import os
import subprocess
import sys

from exact_trace import length, load, ns, subtract, union

COLLECTIVE_MARKERS = ("nccl", "rccl", "allreduce", "all_reduce", "allgather", "all_gather",
                      "reducescatter", "reduce_scatter", "alltoall", "cross_device_reduce")
ROCM_COPY_MARKERS = ("__amd_rocclr_copybuffer", "memory_copy_host_to_device",
                     "memory_copy_device_to_host", "memory_copy_device_to_device")
ROCM_FILL_MARKER = "__amd_rocclr_fillbuffer"
LAUNCH_CATEGORIES = ("cuda_runtime", "cuda_driver", "hip_runtime")






def bucket(event):
    name = str(event.get("name", "")).lower()
    if event["cat"] == "gpu_memcpy":
        return "memcpy"
    if event["cat"] == "kernel":
        if any(m in name for m in ROCM_COPY_MARKERS):
            return "memcpy"
        if ROCM_FILL_MARKER in name:
            return "computation"
        if any(m in name for m in COLLECTIVE_MARKERS):
            return "communication"
    return "computation"








def breakdown(events, ops):
    launches = set()
    for ev in events:
        if ev.get("cat") in LAUNCH_CATEGORIES and ev.get("ph") == "X":
            corr = (ev.get("args") or {}).get("correlation")
            if corr is not None:
                launches.add(corr)
    by_device = {}
    for ev in events:
        if ev.get("ph") != "X" or ev.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        args = ev.get("args") or {}
        if ops == "linked" and args.get("correlation") not in launches:
            continue
        start = ns(ev["ts"])
        end = start + max(ns(ev.get("dur", 0)), 0)
        device = args.get("device", 0)
        by_device.setdefault(int(device), []).append((start, end, bucket(ev)))
    result = {}
    for device, items in by_device.items():
        parts = {b: union([(s, e) for s, e, k in items if k == b])
                 for b in ("computation", "communication", "memcpy")}
        everything = union([(s, e) for s, e, _ in items])
        total = max(e for _, e, _ in items) - min(s for s, _, _ in items)
        busy = length(everything)
        exposed_comm = subtract(parts["communication"], parts["computation"])
        exposed_copy = subtract(subtract(parts["memcpy"], parts["computation"]),
                                parts["communication"])
        result[device] = {
            "ops": len(items), "total": total, "computation": length(parts["computation"]),
            "communication": length(parts["communication"]),
            "exposed_comm": length(exposed_comm), "memcpy": length(parts["memcpy"]),
            "exposed_memcpy": length(exposed_copy), "busy": busy, "idle": total - busy,
        }
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check", metavar="STRATA_CLI")
    p.add_argument("--ops", choices=("all", "linked"), default="all")
    p.add_argument("trace")
    a = p.parse_args()
    if not os.path.exists(a.trace):
        print(f"skipped: {a.trace} is absent")
        return 77
    expected = breakdown(load(a.trace), a.ops)
    if not a.check:
        print(json.dumps(expected, indent=1, sort_keys=True))
        return 0
    got = json.loads(subprocess.run([a.check, "breakdown", "--json", "--ops", a.ops, a.trace],
                                    check=True, capture_output=True, text=True).stdout)
    devices = {d["device"]: d for d in got["devices"]}
    errors = []
    if sorted(devices) != sorted(expected):
        errors.append(f"devices: strata {sorted(devices)}, expected {sorted(expected)}")
    for device, want in expected.items():
        have = devices.get(device)
        if not have:
            continue
        if have["ops"] != want["ops"]:
            errors.append(f"device {device} ops: strata {have['ops']}, expected {want['ops']}")
        for key in ("total", "computation", "communication", "exposed_comm", "memcpy",
                    "exposed_memcpy", "busy", "idle"):
            value = int(round(have[key + "_us"] * 1000))
            if value != want[key]:
                errors.append(f"device {device} {key}: strata {value} ns, expected {want[key]} ns")
    for e in errors:
        print(e)
    n = sum(w["ops"] for w in expected.values())
    print(f"{a.trace} ({a.ops}): {len(expected)} devices, {n} ops: "
          f"{'equal' if not errors else str(len(errors)) + ' differences'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
