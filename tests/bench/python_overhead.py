#!/usr/bin/env python3
"""Issue 45's figures: what recording Python costs a program, measured side by side in one run.

For each workload, each round runs (in an order that rotates every round) the program alone,
under `python3 -m cProfile`, and under `strata-cli record` with --python off, calls and sample
(1 kHz); the table prints the median wall time of each and its ratio to the program alone.
Workloads: a CPU-bound program (tests/bench/python/cpu_bound.py, ~3 s of loops), a call-heavy
one (tests/bench/python/call_heavy.py, ~9 M calls) and a real one,
tests/data/analysis/expected_summary.py over a Kineto trace (give it with --trace; a real trace
scaled with tests/bench/scale_trace.py). Then sampling attribution: busy_idle.py spins busy() for
1.5 s in all; the samples attributed to busy() against the ticks that fell while it ran.

  python3 tests/bench/python_overhead.py --cli build/app/strata-cli --trace /tmp/hta100.json
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def timed(cmd, env=None):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if r.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr.decode()[-2000:]))
    return time.perf_counter() - t, r.stdout.decode()


def modes(cli, python, out):
    rec = [cli, "record", "-q", "-f", "-o", out, "--python"]
    return [
        ("alone", lambda args: [python] + args),
        ("cProfile", lambda args: [python, "-m", "cProfile", "-o", os.devnull] + args),
        ("record --python off", lambda args: rec + ["off", "--", python] + args),
        ("record --python calls", lambda args: rec + ["calls", "--", python] + args),
        ("record --python sample", lambda args: rec + ["sample=1000", "--", python] + args),
    ]


def measure(name, args, cli, python, rounds, out):
    ms = modes(cli, python, out)
    times = {m: [] for m, _ in ms}
    for r in range(rounds):
        for i in range(len(ms)):
            m, make = ms[(i + r) % len(ms)]
            times[m].append(timed(make(args))[0])
    alone = statistics.median(times["alone"])
    print("\n%s (%d rounds, median wall seconds)" % (name, rounds))
    print("| mode | s | x alone |\n|---|---|---|")
    for m, _ in ms:
        t = statistics.median(times[m])
        print("| %s | %.3f | %.3f |" % (m, t, t / alone))
    off = statistics.median(times["record --python off"])
    sample = statistics.median(times["record --python sample"])
    print("sampling at 1 kHz against recording without Python: %+.1f %%" % (100 * (sample / off - 1)))


def attribution(cli, python, out):
    _, stdout = timed([cli, "record", "-q", "-f", "-o", out, "--python", "sample=1000", "--",
                       python, os.path.join(HERE, "python", "busy_idle.py")])
    spent = json.loads(stdout.strip().splitlines()[-1])
    _, report = timed([cli, "samples", "--json", out])
    functions = json.loads(report)["functions"]
    def mine(name):
        return sum(f["self"] for f in functions
                   if "busy_idle.py(" in f["name"] and f["name"].endswith("): " + name))

    busy, idle = mine("busy"), mine("idle")
    ticks = spent["busy"] * 1000
    print("\nattribution: %d samples in busy() for %.0f ticks while it ran (%.1f %%); idle() %d "
          "samples for %.0f ticks" % (busy, ticks, 100 * busy / ticks, idle, spent["idle"] * 1000))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", default=os.path.join(REPO, "build", "app", "strata-cli"))
    p.add_argument("--python", default="/usr/bin/python3")
    p.add_argument("--trace", help="a Kineto trace for the real workload")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.strata")
        print("python: %s" % subprocess.check_output([a.python, "--version"]).decode().strip())
        measure("CPU-bound: tests/bench/python/cpu_bound.py",
                [os.path.join(HERE, "python", "cpu_bound.py")], a.cli, a.python, a.rounds, out)
        measure("call-heavy: tests/bench/python/call_heavy.py",
                [os.path.join(HERE, "python", "call_heavy.py")], a.cli, a.python, a.rounds, out)
        if a.trace:
            measure("real: expected_summary.py %s" % os.path.basename(a.trace),
                    [os.path.join(REPO, "tests", "data", "analysis", "expected_summary.py"),
                     a.trace], a.cli, a.python, a.rounds, out)
        attribution(a.cli, a.python, out)


main()
