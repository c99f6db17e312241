#!/usr/bin/env python3
"""Independent computation of `strata-cli summary --json` numbers, straight from a trace file.

Pure python3 standard library. Reads a Chrome / Kineto (PyTorch profiler) trace, plain JSON or
gzip, and computes by its own means (no Strata code involved):

  gpu:    kernel / memcpy / memset counts, kernel time per device (sum of kernel durations),
          busy time per device (union of kernels, copies and sets), top kernels by total time
  gaps:   per (device, stream): holes in the union of the stream's kernels, copies and sets
          (a copy between two kernels is busy time); over-threshold means strictly longer.
          per device: holes in the union of kernels, copies and sets of all its streams.
  launch: kernel start - start of the cuda_runtime / cuda_driver call with the same correlation.

Timestamps are parsed as decimals (microseconds with up to 3 decimals in Kineto), so every time is
an exact integer number of nanoseconds; floats would lose the nanoseconds of today's epoch-based
timestamps (1.7e15 us is beyond double's 2^53 ns of exact integers at that scale).

Usage:
  expected_summary.py [--gap-threshold-us N] TRACE           print the expected JSON
  expected_summary.py [--gap-threshold-us N]... --check STRATA_CLI TRACE_OR_DIR ...
                                                             run STRATA_CLI summary --json on each
                                                             trace and compare; exit 1 on any
                                                             mismatch, 77 (skip) if no trace exists
"""
import argparse
import decimal
import gzip
import json
import os
import subprocess
import sys

SKIP = 77
# Kineto category (lower case) -> kind. Old Kineto (2021) wrote "Kernel", "Memcpy", "Memset",
# "Runtime"; newer writes "kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver".
GPU_KINDS = {"kernel": "kernel", "gpu_memcpy": "memcpy", "memcpy": "memcpy",
             "gpu_memset": "memset", "memset": "memset"}
LAUNCH_CATEGORIES = {"cuda_runtime", "cuda_driver", "runtime", "driver", "hip_runtime"}
TRACE_SUFFIXES = (".json", ".gz")


def to_ns(value):
    """Microseconds (int, Decimal or numeric string) -> integer nanoseconds, half-even."""
    if value is None:
        return 0
    d = value if isinstance(value, decimal.Decimal) else decimal.Decimal(str(value))
    return int((d * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def as_int(value, default):
    """An id given as int, numeric string or 'stream 7' / 'device 0' style string."""
    if isinstance(value, bool) or value is None:
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, decimal.Decimal):
        return int(value)
    if isinstance(value, str):
        digits = value.strip().split(" ")[-1]
        try:
            return int(digits, 0)
        except ValueError:
            return default
    return default


def load_events(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", errors="replace")
    try:
        doc = json.loads(text, parse_float=decimal.Decimal)
    except json.JSONDecodeError:
        # Chrome allows an unterminated array ("[{...},{...}," with no closing bracket).
        doc = json.loads(text.rstrip().rstrip(",") + "]", parse_float=decimal.Decimal)
    if isinstance(doc, list):
        return doc
    return doc.get("traceEvents", []) if isinstance(doc, dict) else []


def gpu_ops_and_launches(events):
    ops = []
    launches = {}  # correlation -> [start ns]
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        if cat in GPU_KINDS:
            start = to_ns(e.get("ts"))
            dur = to_ns(e.get("dur"))
            ops.append({
                "kind": GPU_KINDS[cat],
                "name": str(e.get("name", "")),
                "device": as_int(args.get("device"), as_int(e.get("pid"), -1)),
                "stream": as_int(args.get("stream"), as_int(e.get("tid"), -1)),
                "start": start,
                "end": start + dur,
                "correlation": as_int(args.get("correlation"), -1),
            })
        elif cat in LAUNCH_CATEGORIES and "correlation" in args:
            launches.setdefault(as_int(args["correlation"], -1), []).append(to_ns(e.get("ts")))
    return ops, launches


def nearest_rank(sorted_values, percent):
    if not sorted_values:
        return 0
    n = len(sorted_values)
    rank = max(1, (percent * n + 99) // 100)  # ceil(percent * n / 100), integer arithmetic
    return sorted_values[rank - 1]


def union_segments(intervals):
    """Closed-interval union: touching intervals merge; returns [(start, end)] sorted."""
    segments = []
    for start, end in sorted(intervals):
        if segments and start <= segments[-1][1]:
            segments[-1][1] = max(segments[-1][1], end)
        else:
            segments.append([start, end])
    return segments


def expected_summary(path, threshold_ns):
    events = load_events(path)
    ops, launches = gpu_ops_and_launches(events)
    us = lambda ns: ns / 1000.0

    counts = {"kernel": 0, "memcpy": 0, "memset": 0}
    kernel_time = {}
    by_name = {}
    for op in ops:
        counts[op["kind"]] += 1
        if op["kind"] == "kernel":
            kernel_time[op["device"]] = kernel_time.get(op["device"], 0) + op["end"] - op["start"]
            by_name.setdefault(op["name"], []).append(op["end"] - op["start"])
    devices = sorted({op["device"] for op in ops})

    # Per stream: holes in the union of the stream's kernels, copies and sets.
    streams = {}
    for op in ops:
        streams.setdefault((op["device"], op["stream"]), []).append(op)
    by_stream = []
    for (device, stream) in sorted(streams):
        sops = streams[(device, stream)]
        segs = union_segments([(op["start"], op["end"]) for op in sops])
        gaps = [b[0] - a[1] for a, b in zip(segs, segs[1:])]
        by_stream.append({"device": device, "stream": stream,
                          "kernels": sum(1 for op in sops if op["kind"] == "kernel"),
                          "gaps": len(gaps),
                          "gaps_over_threshold": sum(1 for g in gaps if g > threshold_ns),
                          "idle_ns": sum(gaps), "longest_ns": max(gaps, default=0)})

    # Per device: union of kernels, copies and sets.
    by_device = []
    busy = {}
    for device in devices:
        segs = union_segments([(op["start"], op["end"]) for op in ops if op["device"] == device])
        holes = [b[0] - a[1] for a, b in zip(segs, segs[1:])]
        busy[device] = sum(b - a for a, b in segs)
        by_device.append({"device": device,
                          "ops": sum(1 for op in ops if op["device"] == device),
                          "gaps": len(holes),
                          "gaps_over_threshold": sum(1 for h in holes if h > threshold_ns),
                          "idle_ns": sum(holes), "longest_ns": max(holes, default=0),
                          "busy_ns": busy[device]})

    top = sorted(((sum(d), name, len(d)) for name, d in by_name.items()),
                 key=lambda t: (-t[0], t[1]))
    # Launch latency: kernel start - launching API call start, by correlation id.
    latencies, unmatched, no_correlation, ambiguous = [], 0, 0, 0
    for op in ops:
        if op["kind"] != "kernel":
            continue
        starts = launches.get(op["correlation"]) if op["correlation"] >= 0 else None
        if not starts:
            unmatched += 1
            no_correlation += op["correlation"] < 0
            continue
        if len(starts) > 1:
            ambiguous += 1
        latencies.append(op["start"] - min(starts))
    latencies.sort()

    return {
        "file": path,
        "gpu": {
            "kernels": counts["kernel"], "memcpy": counts["memcpy"], "memset": counts["memset"],
            "kernel_time_us_by_device": {str(d): us(kernel_time.get(d, 0)) for d in devices},
            "busy_us_by_device": {str(d): us(busy[d]) for d in devices},
            "busy_us": us(sum(busy.values())),
            "kernel_names": len(by_name),
            "top_kernels": [{"name": n, "count": c, "total_us": us(t),
                             "min_us": us(min(by_name[n])), "max_us": us(max(by_name[n])),
                             "median_us": us(nearest_rank(sorted(by_name[n]), 50)),
                             "p95_us": us(nearest_rank(sorted(by_name[n]), 95)),
                             "share_of_busy": t / sum(busy.values()) if sum(busy.values()) else 0.0}
                            for t, n, c in top[:10]],
        },
        "gaps": {
            "threshold_us": us(threshold_ns),
            "by_stream": [dict((k.replace("_ns", "_us"), us(v) if k.endswith("_ns") else v)
                               for k, v in s.items()) for s in by_stream],
            "by_device": [dict((k.replace("_ns", "_us"), us(v) if k.endswith("_ns") else v)
                               for k, v in d.items()) for d in by_device],
        },
        "launch_latency": {
            "kernels": counts["kernel"], "matched": len(latencies), "unmatched": unmatched,
            "unmatched_without_correlation": no_correlation,
            "ambiguous_correlation": ambiguous,
            "negative": sum(1 for x in latencies if x < 0),
            "min_us": us(latencies[0]) if latencies else 0.0,
            "max_us": us(latencies[-1]) if latencies else 0.0,
            "median_us": us(nearest_rank(latencies, 50)),
            "p95_us": us(nearest_rank(latencies, 95)),
            "mean_us": us(sum(latencies) / len(latencies)) if latencies else 0.0,
        },
    }


class Checker:
    def __init__(self, label):
        self.label = label
        self.failures = []
        self.checked = 0
        self.worst_rel = 0.0

    def exact(self, what, got, want):
        self.checked += 1
        if got != want:
            self.failures.append(f"{what}: strata-cli {got!r}, expected {want!r}")

    def close(self, what, got, want, rel=1e-3, abs_us=0.0015):
        """Within 0.1 % (relative) or 1.5 ns (absolute), whichever is larger."""
        self.checked += 1
        if not isinstance(got, (int, float)):
            self.failures.append(f"{what}: strata-cli {got!r}, expected {want!r}")
            return
        diff = abs(got - want)
        if want:
            self.worst_rel = max(self.worst_rel, diff / abs(want))
        if diff > max(abs_us, rel * abs(want)):
            self.failures.append(f"{what}: strata-cli {got!r}, expected {want!r}")


def compare(cli, path, threshold_us):
    threshold_ns = to_ns(decimal.Decimal(str(threshold_us)))
    proc = subprocess.run([cli, "summary", "--json", "--gap-threshold-us", str(threshold_us), path],
                          capture_output=True, text=True)
    c = Checker(os.path.basename(path))
    if proc.returncode != 0:
        c.failures.append(f"strata-cli exited {proc.returncode}: {proc.stderr.strip()}")
        return c, None
    got = json.loads(proc.stdout)
    try:
        want = expected_summary(path, threshold_ns)
    except (ValueError, OSError) as e:  # JSONDecodeError is a ValueError
        c.failures.append(f"strata-cli loaded it, but python cannot read it: {e}")
        return c, None
    gg, wg = got.get("gpu", {}), want["gpu"]
    for key in ("kernels", "memcpy", "memset", "kernel_names"):
        c.exact(f"gpu.{key}", gg.get(key), wg[key])
    for key in ("kernel_time_us_by_device", "busy_us_by_device"):
        c.exact(f"gpu.{key} devices", sorted(gg.get(key, {})), sorted(wg[key]))
        for dev, value in wg[key].items():
            c.close(f"gpu.{key}[{dev}]", gg.get(key, {}).get(dev), value)
    gt = gg.get("top_kernels", [])
    c.exact("gpu.top_kernels length", len(gt), len(wg["top_kernels"]))
    for i, (g, w) in enumerate(zip(gt, wg["top_kernels"])):
        c.exact(f"top_kernels[{i}].name", g.get("name"), w["name"])
        c.exact(f"top_kernels[{i}].count", g.get("count"), w["count"])
        for k in ("total_us", "min_us", "max_us", "median_us", "p95_us"):
            c.close(f"top_kernels[{i}].{k}", g.get(k), w[k])
        c.close(f"top_kernels[{i}].share_of_busy", g.get("share_of_busy"), w["share_of_busy"],
                abs_us=1e-9)

    gaps, wgaps = got.get("gaps", {}), want["gaps"]
    c.close("gaps.threshold_us", gaps.get("threshold_us"), wgaps["threshold_us"])
    for level, keys in (("by_stream", ("device", "stream", "kernels", "gaps", "gaps_over_threshold")),
                        ("by_device", ("device", "ops", "gaps", "gaps_over_threshold"))):
        gl, wl = gaps.get(level, []), wgaps[level]
        c.exact(f"gaps.{level} length", len(gl), len(wl))
        for g, w in zip(gl, wl):
            where = f"gaps.{level}[device {w['device']}" + (
                f" stream {w['stream']}]" if "stream" in w else "]")
            for k in keys:
                c.exact(f"{where}.{k}", g.get(k), w[k])
            for k in ("idle_us", "longest_us") + (("busy_us",) if level == "by_device" else ()):
                c.close(f"{where}.{k}", g.get(k), w[k])

    gl, wl = got.get("launch_latency", {}), want["launch_latency"]
    for k in ("kernels", "matched", "unmatched", "unmatched_without_correlation", "negative"):
        c.exact(f"launch_latency.{k}", gl.get(k), wl[k])
    for k in ("min_us", "max_us", "median_us", "p95_us", "mean_us"):
        c.close(f"launch_latency.{k}", gl.get(k), wl[k])
    return c, (got, want)


def trace_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.endswith(TRACE_SUFFIXES):
                    yield os.path.join(p, name)
        elif os.path.exists(p):
            yield p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gap-threshold-us", type=decimal.Decimal, action="append",
                    help="gap threshold in us (default 10); --check runs once per value given")
    ap.add_argument("--check", metavar="STRATA_CLI",
                    help="compare strata-cli summary --json with the expectation")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    thresholds = a.gap_threshold_us or [decimal.Decimal(10)]

    if not a.check:
        for path in a.traces:
            print(json.dumps(expected_summary(path, to_ns(thresholds[0])), indent=1))
        return 0

    files = list(trace_files(a.traces))
    if not files:
        print(f"SKIP: no trace found in {' '.join(a.traces)}")
        return SKIP
    failed = 0
    for path, threshold in ((p, t) for p in files for t in thresholds):
        c, pair = compare(a.check, path, threshold)
        summary = ""
        if pair:
            w = pair[1]
            summary = (f"{w['gpu']['kernels']} kernels, {w['gpu']['memcpy']} memcpy, "
                       f"{w['gpu']['memset']} memset, "
                       f"{sum(s['gaps_over_threshold'] for s in w['gaps']['by_stream'])} stream "
                       f"gaps > {threshold} us, launch matched "
                       f"{w['launch_latency']['matched']}")
            if w["launch_latency"]["ambiguous_correlation"]:
                summary += f" ({w['launch_latency']['ambiguous_correlation']} ambiguous)"
        status = "FAIL" if c.failures else "ok"
        print(f"{status:4} {os.path.basename(path)} (gap threshold {threshold} us): {c.checked} "
              f"values checked, worst relative "
              f"difference {c.worst_rel:.2e}; {summary}")
        for f in c.failures[:40]:
            print(f"     {f}")
        if len(c.failures) > 40:
            print(f"     ... {len(c.failures) - 40} more")
        failed += bool(c.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
