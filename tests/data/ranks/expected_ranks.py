#!/usr/bin/env python3
"""The ranks of a Kineto JSON job computed from the raw files with the python standard library
only (timestamps read as decimals), to check `strata-cli ranks --json` against:

  - each file's rank (distributedInfo.rank) and its kernels (events of category "kernel");
  - its collective kernels (names containing nccl/rccl), matched across ranks by their order on
    each stream (these traces name no process group);
  - under the common clock (wall-clock timestamps, or baseTimeNanoseconds + ts): the spread of
    each instance's ends (latest - earliest), each rank's arrival (kernel start), the last to
    arrive, each rank's wait for it and the others' median wait (the lower middle value);
  - per step (ProfilerStep#N): the rank the others waited longest for (the sum of those median
    waits over the instances it arrived last at, each instance in the step its kernels start in
    on most ranks) and that sum.

  expected_ranks.py DIR_OR_FILES...                 print the figures
  expected_ranks.py --check STRATA_CLI DIR_OR_FILES...  compare with strata-cli ranks --json

Exit 0 when they agree, 1 with what differs, 77 when the files are absent (skipped)."""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
from decimal import Decimal


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def lower_median(values):
    v = sorted(values)
    return v[(len(v) + 1) // 2 - 1]


def rank_of(doc, path):
    info = doc.get("distributedInfo")
    if isinstance(info, dict) and "rank" in info:
        return int(info["rank"])
    m = re.search(r"rank[-_.]?(\d+)", os.path.basename(path), re.I) or re.search(r"(\d+)", os.path.basename(path))
    return int(m.group(1))


def digest(path):
    doc = load(path)
    base = Decimal(doc["baseTimeNanoseconds"]) / 1000 if "baseTimeNanoseconds" in doc else Decimal(0)
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    comm = [e for e in kernels if "nccl" in e["name"].lower() or "rccl" in e["name"].lower()]
    comm.sort(key=lambda e: e["ts"])
    by_stream = collections.defaultdict(list)
    for e in comm:
        by_stream[int(e["args"]["stream"])].append((e["ts"] + base, e["ts"] + e["dur"] + base, e["ts"]))
    steps = [(e["name"], e["ts"], e["ts"] + e["dur"]) for e in events if e["name"].startswith("ProfilerStep#")]
    first = min(e["ts"] for e in doc["traceEvents"] if e.get("ph") not in ("M",) and "ts" in e)
    return {"file": path, "rank": rank_of(doc, path), "kernels": len(kernels), "collectives": by_stream,
            "steps": steps, "first": first + base}


def expected(paths):
    ranks = sorted((digest(p) for p in paths), key=lambda r: r["rank"])
    origin = min(r["first"] for r in ranks)
    instances = []
    streams = sorted(set().union(*(r["collectives"].keys() for r in ranks)))
    for s in streams:
        n = max(len(r["collectives"].get(s, [])) for r in ranks)
        for i in range(n):
            members = [(r, r["collectives"][s][i]) for r in ranks if i < len(r["collectives"].get(s, []))]
            if len(members) < 2:
                continue
            arrival = {r["rank"]: c[0] - origin for r, c in members}
            ends = [c[1] for _, c in members]
            late = max(arrival, key=lambda k: (arrival[k], -k))
            wait = {k: arrival[late] - a for k, a in arrival.items()}
            votes = collections.Counter()
            for r, c in members:
                for name, s0, s1 in r["steps"]:
                    if s0 <= c[2] < s1:
                        votes[name] += 1
            instances.append({"stream": s, "index": i, "arrival": arrival, "spread": max(ends) - min(ends),
                              "late": late, "wait": wait,
                              "late_by": lower_median([w for k, w in wait.items() if k != late]),
                              "step": votes.most_common(1)[0][0] if votes else None})
    caused = collections.defaultdict(lambda: collections.defaultdict(Decimal))
    for c in instances:
        caused[c["step"]][c["late"]] += c["late_by"]
    stragglers = {}
    for step, per_rank in caused.items():
        top = max(per_rank, key=lambda k: (per_rank[k], -k))
        stragglers[step] = (top, per_rank[top])
    return ranks, instances, stragglers


def close(a, b):
    return abs(Decimal(str(a)) - Decimal(b)) <= Decimal("0.0005")


def check(cli, paths, ranks, instances, stragglers):
    out = json.loads(subprocess.run([cli, "ranks", "--json", *paths], check=True, capture_output=True).stdout)
    problems = []
    got = [(r["rank"], os.path.basename(r["file"]), r["kernels"]) for r in out["ranks"]]
    want = [(r["rank"], os.path.basename(r["file"]), r["kernels"]) for r in ranks]
    if got != want:
        problems.append(f"ranks: strata-cli {got}, expected {want}")
    a = out["alignment"]
    spread = max(c["spread"] for c in instances)
    if a["method"] != "time" or a["matched_collectives"] != len(instances) or not close(a["spread_us"], spread):
        problems.append(f"alignment {a['method']}, {a['matched_collectives']} matched, spread {a['spread_us']} us; "
                        f"expected time, {len(instances)}, {spread} us")
    cs = {(c["group"], c["index"]): c for c in out["collectives"]}
    for c in instances:
        g = cs.get((f"stream {c['stream']}", c["index"]))
        if g is None:
            problems.append(f"instance stream {c['stream']} #{c['index']} missing")
            continue
        arrival = dict(zip(g["ranks"], g["ranks_arrival_us"]))
        wait = dict(zip(g["ranks"], g["wait_us"]))
        if g["late_rank"] != c["late"] or not close(g["late_by_us"], c["late_by"]) or g["step"] != c["step"]:
            problems.append(f"#{c['index']}: late rank {g['late_rank']} by {g['late_by_us']} in {g['step']}, "
                            f"expected {c['late']} by {c['late_by']} in {c['step']}")
        for k in c["arrival"]:
            if not close(arrival.get(k, -1), c["arrival"][k]) or not close(wait.get(k, -1), c["wait"][k]):
                problems.append(f"#{c['index']} rank {k}: arrival {arrival.get(k)} wait {wait.get(k)}, "
                                f"expected {c['arrival'][k]} {c['wait'][k]}")
    for s in out["steps"]:
        if s["step"] in stragglers:
            rank, delay = stragglers[s["step"]]
            if s["straggler_rank"] != rank or not close(s["delay_us"], delay) or s["straggler_by"] != "collectives":
                problems.append(f"{s['step']}: straggler {s['straggler_rank']} by {s['delay_us']} us, "
                                f"expected {rank} by {delay} us")
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
    ranks, instances, stragglers = expected(paths)
    for r in ranks:
        print(f"rank {r['rank']}: {r['kernels']} kernels, "
              f"{sum(len(v) for v in r['collectives'].values())} collectives  {os.path.basename(r['file'])}")
    print(f"{len(instances)} instances, spread of their ends up to {max(c['spread'] for c in instances)} us")
    for step, (rank, delay) in stragglers.items():
        print(f"{step}: straggler rank {rank}, the others waited {delay} us for it")
    if not args.check:
        return 0
    problems = check(args.check, paths, ranks, instances, stragglers)
    for p in problems:
        print("differs:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
