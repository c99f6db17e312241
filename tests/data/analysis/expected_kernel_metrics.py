#!/usr/bin/env python3
"""GPU time by GPU-side user annotation, the kernel args' weighted means and the tensor-core share
(issue 46) computed from a Chrome/Kineto JSON trace's raw events, with no code of Strata's, and
compared with `strata-cli stats --json` ("gpu_annotations", the "kernels" rows, "kernel_metrics").

The rules, as docs/analysis.md ("GPU annotations and the plugin's kernel metrics") writes them:
  GPU ops      'X' events with cat kernel, gpu_memcpy or gpu_memset (Kernel, Memcpy, Memset), on
               (args.device else pid, args.stream else tid); one with ts 0 and dur 0 is no op
  annotations  'X' events with cat gpu_user_annotation on the same (device, stream) key
  attribution  HTA's get_gpu_kernels_with_user_annotations, done as HTA does it: the annotations
               of a stream taken longest first, each labelling every op of that stream that
               overlaps it (op start < its end and its start < op end), the last label kept;
               equal lengths taken in start order (the later start labels last)
  per name     ops, kernels, GPU time (per device the union of its ops, summed), annotations
               (count, summed duration); share = GPU time / the union of all ops per device
  kernels      per name the duration-weighted mean of args "blocks per SM" and "est. achieved
               occupancy %" over the kernels that carry a number (0 when they weigh 0); tensor
               cores when the name contains one of the TensorBoard plugin's patterns
               (tensor_core.py); the share of kernel time in those kernels
Times are integer nanoseconds (the trace's microseconds with three decimals), compared exactly;
the means to a relative 1e-9.

usage: expected_kernel_metrics.py [--check STRATA_CLI] TRACE
Exit 0 when equal, 1 with the differences, 77 when the trace is absent.
"""
import argparse
import decimal
import json
import numbers
import os
import subprocess
import sys

from exact_trace import length, load, ns, union

TC_PATTERNS = ("h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816",
               "dgrad_1x1_stride_2x2", "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1",
               "direct_group", "xmma_implicit_gemm", "xmma_sparse_conv",
               "xmma_warp_specialized_implicit_gemm", "xmma_gemm", "xmma_sparse_gemm", "c1688")
OP_CATEGORIES = {"kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "memcpy",
                 "Memcpy": "memcpy", "gpu_memset": "memset", "Memset": "memset"}






def trailing_int(value):
    if isinstance(value, numbers.Number):
        return int(value)
    digits = ""
    for ch in reversed(str(value)):
        if not ch.isdigit():
            break
        digits = ch + digits
    return int(digits) if digits else None


def key_of(ev):
    args = ev.get("args") or {}
    device = args.get("device", ev.get("pid"))
    stream = args.get("stream", trailing_int(ev.get("tid")))
    return int(device), int(stream)


def number(v):
    if isinstance(v, bool) or not isinstance(v, (numbers.Number, decimal.Decimal)):
        return None
    return float(v)




def expected(events):
    ops, anns = [], []
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or ev.get("ph") != "X" or "ts" not in ev:
            continue
        cat = ev.get("cat")
        if cat not in OP_CATEGORIES and cat != "gpu_user_annotation":
            continue
        if ns(ev["ts"]) == 0 and ns(ev.get("dur", 0)) == 0:
            continue
        start = ns(ev["ts"])
        item = {"start": start, "end": start + ns(ev.get("dur", 0)), "key": key_of(ev),
                "name": str(ev.get("name", "")), "order": i, "ev": ev}
        if cat == "gpu_user_annotation":
            anns.append(item)
        else:
            item["kind"] = OP_CATEGORIES[cat]
            ops.append(item)
    # HTA's labelling: longest first, the shortest overlapping annotation's label kept.
    label = [None] * len(ops)
    for a in sorted(anns, key=lambda a: (-(a["end"] - a["start"]), a["start"], a["order"])):
        for i, op in enumerate(ops):
            if op["key"] == a["key"] and op["start"] < a["end"] and a["start"] < op["end"]:
                label[i] = a["name"]
    rows = {}
    for a in anns:
        r = rows.setdefault(a["name"], {"ops": 0, "kernels": 0, "pieces": {}, "annotations": 0,
                                        "annotated": 0})
        r["annotations"] += 1
        r["annotated"] += a["end"] - a["start"]
    for op, name in zip(ops, label):
        if name is None:
            continue
        r = rows[name]
        r["ops"] += 1
        r["kernels"] += op["kind"] == "kernel"
        r["pieces"].setdefault(op["key"][0], []).append((op["start"], op["end"]))
    by_device = {}
    for op in ops:
        by_device.setdefault(op["key"][0], []).append((op["start"], op["end"]))
    busy = sum(length(union(v)) for v in by_device.values())
    for r in rows.values():
        r["gpu"] = sum(length(union(v)) for v in r.pop("pieces").values())
        r["share"] = r["gpu"] / busy if busy else 0.0
    # Kernels per name.
    kernels = {}
    for op in ops:
        if op["kind"] != "kernel":
            continue
        k = kernels.setdefault(op["name"], {"time": 0, "bps": [], "occ": []})
        dur = op["end"] - op["start"]
        k["time"] += dur
        args = op["ev"].get("args") or {}
        for arg, key in (("blocks per SM", "bps"), ("est. achieved occupancy %", "occ")):
            v = number(args.get(arg))
            if v is not None:
                k[key].append((v, dur))
    for name, k in kernels.items():
        k["tc"] = any(p in name for p in TC_PATTERNS)
        for key in ("bps", "occ"):
            pairs = k[key]
            weight = sum(d for _, d in pairs)
            k[key] = None if not pairs else (sum(v * d for v, d in pairs) / weight if weight else 0.0)
    kernel_time = sum(k["time"] for k in kernels.values())
    tc_time = sum(k["time"] for k in kernels.values() if k["tc"])
    return rows, kernels, kernel_time, tc_time, len(ops), sum(1 for x in label if x is not None)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def compare(got, want):
    rows, kernels, kernel_time, tc_time, n_ops, attributed = want
    errors = []
    have_rows = {r["name"]: r for r in got["gpu_annotations"]}
    if sorted(have_rows) != sorted(rows):
        errors.append(f"annotation names: strata {sorted(have_rows)}, expected {sorted(rows)}")
    for name, w in rows.items():
        h = have_rows.get(name)
        if not h:
            continue
        for key, have, exp in (("ops", h["ops"], w["ops"]), ("kernels", h["kernels"], w["kernels"]),
                               ("gpu", int(round(h["gpu_us"] * 1000)), w["gpu"]),
                               ("annotations", h["annotations"], w["annotations"]),
                               ("annotated", int(round(h["annotated_us"] * 1000)), w["annotated"])):
            if have != exp:
                errors.append(f"annotation {name} {key}: strata {have}, expected {exp}")
        if not close(h["share"], w["share"]):
            errors.append(f"annotation {name} share: strata {h['share']}, expected {w['share']}")
    have_kernels = {k["name"]: k for k in got["kernels"]}
    if sorted(have_kernels) != sorted(kernels):
        errors.append(f"kernel names: strata {len(have_kernels)}, expected {len(kernels)}")
    for name, w in kernels.items():
        h = have_kernels.get(name)
        if not h:
            continue
        if h["tensor_cores"] != w["tc"]:
            errors.append(f"kernel {name} tensor cores: strata {h['tensor_cores']}, expected {w['tc']}")
        for key, exp in (("blocks_per_sm", w["bps"]), ("achieved_occupancy_pct", w["occ"])):
            if not close(h[key], exp):
                errors.append(f"kernel {name} {key}: strata {h[key]}, expected {exp}")
    m = got["kernel_metrics"]
    for key, have, exp in (("kernel time", int(round(m["kernel_time_us"] * 1000)), kernel_time),
                           ("tensor-core time", int(round(m["tensor_core_us"] * 1000)), tc_time)):
        if have != exp:
            errors.append(f"{key}: strata {have} ns, expected {exp} ns")
    share = tc_time / kernel_time if kernel_time else 0.0
    if not close(m["tensor_core_share"], share):
        errors.append(f"tensor-core share: strata {m['tensor_core_share']}, expected {share}")
    return errors


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check", metavar="STRATA_CLI")
    p.add_argument("trace")
    a = p.parse_args()
    if not os.path.exists(a.trace):
        print(f"skipped: {a.trace} is absent")
        return 77
    want = expected(load(a.trace))
    rows, kernels, kernel_time, tc_time, n_ops, attributed = want
    if not a.check:
        print(json.dumps({"gpu_annotations": rows, "kernels": kernels, "kernel_time": kernel_time,
                          "tensor_core_time": tc_time}, indent=1, sort_keys=True, default=str))
        return 0
    got = json.loads(subprocess.run([a.check, "stats", "--json", a.trace], check=True,
                                    capture_output=True, text=True).stdout)
    errors = compare(got, want)
    for e in errors:
        print(e)
    print(f"{a.trace}: {len(rows)} annotation names, {attributed} of {n_ops} GPU ops under one, "
          f"{len(kernels)} kernel names: {'equal' if not errors else str(len(errors)) + ' differences'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
