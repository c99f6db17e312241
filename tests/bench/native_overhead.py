#!/usr/bin/env python3
"""Issue 45's native figures: what --cpu-sample costs a program, measured side by side in one run.

For each workload, each round runs (in an order that rotates every round) the program alone and
under `strata-cli record` without native sampling and with `--cpu-sample` (1 kHz); the table
prints the median wall time and the median CPU time (user + system, the whole process tree) of
each and their ratio to the program alone. Workloads: tests/data/native/known_work (a C++
program, two threads spinning ~1.7 s of CPU between them, built as build/tests/native/known_work),
tests/bench/python/cpu_bound.py (Python, with the Python sampler on in both recorded modes) and,
with --trace, tests/data/analysis/expected_summary.py over a Kineto trace. Then attribution:
known_work's heavy() against the CPU time it measured itself.

  python3 tests/bench/native_overhead.py --trace /tmp/hta100.json
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("failed (exit %d): %s\n%s%s" % (r.returncode, " ".join(cmd),
                                                r.stdout.decode()[-1000:], r.stderr.decode()[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(name, command, python_mode, cli, rounds, out):
    rec = [cli, "record", "-q", "-f", "-o", out, "--python", python_mode]
    modes = [
        ("alone", command),
        ("record", rec + ["--"] + command),
        ("record --cpu-sample", rec + ["--cpu-sample", "--"] + command),
    ]
    wall = {m: [] for m, _ in modes}
    cpu = {m: [] for m, _ in modes}
    for r in range(rounds):
        for i in range(len(modes)):
            m, cmd = modes[(i + r) % len(modes)]
            w, c = timed(cmd)
            wall[m].append(w)
            cpu[m].append(c)
    print("\n%s (--python %s; %d rounds, medians)" % (name, python_mode, rounds))
    print("| mode | wall s | x alone | CPU s | x alone |\n|---|---|---|---|---|")
    w0, c0 = statistics.median(wall["alone"]), statistics.median(cpu["alone"])
    for m, _ in modes:
        w, c = statistics.median(wall[m]), statistics.median(cpu[m])
        print("| %s | %.3f | %.3f | %.3f | %.3f |" % (m, w, w / w0, c, c / c0))
    w1, c1 = statistics.median(wall["record"]), statistics.median(cpu["record"])
    w2, c2 = statistics.median(wall["record --cpu-sample"]), statistics.median(
        cpu["record --cpu-sample"])
    print("--cpu-sample against the same recording without it: wall %+.1f%%, CPU %+.1f%%" %
          (100 * (w2 / w1 - 1), 100 * (c2 / c1 - 1)))


def attribution(cli, known, out):
    with tempfile.TemporaryDirectory() as d:
        measured = os.path.join(d, "m.json")
        subprocess.run([cli, "record", "-q", "-f", "-o", out, "--python", "off", "--cpu-sample",
                        "--", known, "100", measured], check=True)
        m = json.load(open(measured))
    s = json.loads(subprocess.run([cli, "samples", "--json", out], check=True,
                                  stdout=subprocess.PIPE).stdout)
    total = {f["name"]: f["total"] for f in s["functions"]}
    light, heavy = total.get("known::light()", 0), total.get("known::heavy()", 0)
    print("\nattribution: heavy() has %.1f%% of heavy()+light()'s samples, %.1f%% of their CPU "
          "time; %d samples in work(), %.0f ms of its CPU" %
          (100 * heavy / (light + heavy), 100 * m["heavy"] / (m["light"] + m["heavy"]),
           total.get("known::work(int)", 0), m["work"] / 1e6))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", default=os.path.join(REPO, "build", "app", "strata-cli"))
    p.add_argument("--known", default=os.path.join(REPO, "build", "tests", "native", "known_work"))
    p.add_argument("--python", default="/usr/bin/python3")
    p.add_argument("--trace", help="a Kineto trace for the real workload")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "bench.strata")
        measure("known_work 200 (C++, 2 threads)", [a.known, "200"], "off", a.cli, a.rounds, out)
        measure("cpu_bound.py", [a.python, os.path.join(HERE, "python", "cpu_bound.py")],
                "sample", a.cli, a.rounds, out)
        if a.trace:
            measure("expected_summary.py (real)",
                    [a.python, os.path.join(REPO, "tests", "data", "analysis",
                                            "expected_summary.py"), a.trace],
                    "sample", a.cli, a.rounds, out)
        attribution(a.cli, a.known, out)


if __name__ == "__main__":
    main()
