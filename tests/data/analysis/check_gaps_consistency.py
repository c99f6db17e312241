#!/usr/bin/env python3
"""strata-cli gaps --json against strata-cli summary --json on one trace: the per-cause counts
add up to the device gaps over the threshold the summary reports, the per-cause idle to the
durations of the listed device gaps, each stream's listed gaps to its count over the threshold,
and every gap has exactly one known cause. Exit 0 when consistent, 1 with what differs, 77 when
the trace is absent (skipped)."""
import json, os, subprocess, sys

def main():
    cli, trace = sys.argv[1], sys.argv[2]
    if not os.path.exists(trace):
        print(f"skipped: {trace} is absent")
        return 77
    run = lambda *a: json.loads(subprocess.run([cli, *a, trace], check=True, capture_output=True).stdout)
    gaps, summary = run("gaps", "--json", "--gap-threshold-us", "10"), run("summary", "--json", "--gap-threshold-us", "10")
    problems = []
    causes = {"launch_bound", "launch_overhead", "synchronization", "dependency", "unattributed"}
    for g in gaps["gaps"]:
        if g["cause"] not in causes:
            problems.append(f"unknown cause {g['cause']}")
        if not g["dur_us"] > 10:
            problems.append(f"a gap of {g['dur_us']} us is not over the threshold")
    device_gaps = [g for g in gaps["gaps"] if g["stream"] is None]
    by_cause = gaps["by_cause"]
    count = sum(c["count"] for c in by_cause.values())
    idle = sum(c["idle_us"] for c in by_cause.values())
    expected = sum(d["gaps_over_threshold"] for d in summary["gaps"]["by_device"])
    if count != expected or count != len(device_gaps):
        problems.append(f"by_cause counts {count}, listed device gaps {len(device_gaps)}, summary {expected}")
    listed = sum(g["dur_us"] for g in device_gaps)
    if abs(idle - listed) > 1e-6 * max(1.0, listed):
        problems.append(f"by_cause idle {idle} us, listed device gaps {listed} us")
    for s in summary["gaps"]["by_stream"]:
        n = sum(1 for g in gaps["gaps"] if g["stream"] == s["stream"] and g["device"] == s["device"])
        if n != s["gaps_over_threshold"]:
            problems.append(f"stream {s['device']}/{s['stream']}: {n} gaps listed, summary {s['gaps_over_threshold']}")
    for p in problems:
        print("inconsistent:", p)
    print(f"{os.path.basename(trace)}: {count} device gaps, {idle:.3f} us idle by cause, "
          f"{len(gaps['gaps']) - len(device_gaps)} stream gaps, {len(gaps['steps'])} step rows")
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
