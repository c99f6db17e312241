#!/usr/bin/env python3
"""How late each rank of a Kineto JSON job started each step, computed from the raw files with
the python standard library only (timestamps read as decimals), to check the late_start_us of
`strata-cli ranks --json` against (issue 44):

  - each file's rank (distributedInfo.rank) and its steps (events named ProfilerStep#N, the n-th
    of a name matched with the n-th on every rank);
  - under the common clock (wall-clock timestamps, or baseTimeNanoseconds + ts), each rank's
    start of the step minus the earliest start of that step on any rank: its late start; the
    rank with the largest (the lowest rank of a tie) started the step last.

The traces must line up under their common clock (strata-cli's alignment then keeps it: every
offset 0, which the check requires).

  expected_late_starts.py DIR_OR_FILES...                 print the figures
  expected_late_starts.py --check STRATA_CLI DIR_OR_FILES...  compare with strata-cli ranks --json

Exit 0 when they agree, 1 with what differs, 77 when the files are absent (skipped)."""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys
from decimal import Decimal

from expected_ranks import load  # the same reading of a file: timestamps as decimals


def steps_of(path):
    doc = load(path)
    base = Decimal(doc["baseTimeNanoseconds"]) / 1000 if "baseTimeNanoseconds" in doc else Decimal(0)
    rank = int(doc["distributedInfo"]["rank"])
    seen = collections.Counter()
    starts = {}
    events = sorted((e for e in doc["traceEvents"] if e.get("ph") == "X"
                     and str(e.get("name", "")).startswith("ProfilerStep#")), key=lambda e: e["ts"])
    for e in events:
        key = (e["name"], seen[e["name"]])
        seen[e["name"]] += 1
        starts[key] = e["ts"] + base
    return rank, starts


def expected(paths):
    by_rank = dict(steps_of(p) for p in paths)
    keys = sorted(set().union(*(s.keys() for s in by_rank.values())))
    out = {}
    for key in keys:
        starts = {r: s[key] for r, s in by_rank.items() if key in s}
        first = min(starts.values())
        late = {r: t - first for r, t in starts.items()}
        last = max(late, key=lambda r: (late[r], -r))
        label = key[0] if key[1] == 0 else f"{key[0]} [{key[1] + 1}]"
        out[label] = (late, last if late[last] > 0 else None)
    return out


def check(cli, paths, want):
    out = json.loads(subprocess.run([cli, "ranks", "--json", *paths], check=True,
                                    capture_output=True).stdout)
    problems = []
    if any(r["offset_us"] != 0 for r in out["ranks"]):
        problems.append(f"offsets {[r['offset_us'] for r in out['ranks']]}: expected every one 0")
    got = {s["step"]: s for s in out["steps"]}
    for step, (late, last) in want.items():
        s = got.get(step)
        if s is None:
            problems.append(f"{step} missing")
            continue
        if s["last_to_start_rank"] != last or (last is not None and
                                               abs(Decimal(str(s["started_late_us"])) - late[last]) > Decimal("0.0005")):
            problems.append(f"{step}: last to start rank {s['last_to_start_rank']} by {s['started_late_us']} us, "
                            f"expected {last} by {late.get(last)} us")
        for row in s["ranks"]:
            exp = late.get(row["rank"])
            if exp is None or row["late_start_us"] is None or \
                    abs(Decimal(str(row["late_start_us"])) - exp) > Decimal("0.0005"):
                problems.append(f"{step} rank {row['rank']}: late start {row['late_start_us']} us, expected {exp}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", metavar="STRATA_CLI")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    paths = []
    for i in args.inputs:
        paths += sorted(glob.glob(os.path.join(i, "*.json"))) if os.path.isdir(i) else [i]
    if not paths or not all(os.path.exists(p) for p in paths):
        print("skipped: the traces are absent")
        return 77
    want = expected(paths)
    for step, (late, last) in want.items():
        print(f"{step}: " + ", ".join(f"rank {r} +{late[r]} us" for r in sorted(late)))
        if last is not None:
            print(f"{step}: rank {last} started it last, {late[last]} us after the first")
    if not args.check:
        return 0
    problems = check(args.check, paths, want)
    for p in problems:
        print("differs:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
