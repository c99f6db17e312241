#!/usr/bin/env python3
"""The older rocprof's results.db as Strata reads it, against rocprof's own summary CSVs written in
the same run (results.stats.csv: kernels, results.hip_stats.csv: HIP calls,
results.copy_stats.csv: copies): per name the number of calls and the total duration in ns, from
the slices of `strata-cli export --format perfetto-json` (µs text, exact to the ns).

  check_rocprof_csv.py STRATA_CLI DIR     (DIR holds results.db and the three CSVs)
"""
import csv
import json
import os
import subprocess
import sys
from collections import defaultdict

COPY_NAMES = {"CopyHostToDevice": "HtoD", "CopyDeviceToHost": "DtoH", "CopyDeviceToDevice": "DtoD"}


def ns(text):
    whole, _, frac = str(text).partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


def csv_stats(path):
    with open(path, newline="") as f:
        return {r["Name"]: (int(r["Calls"]), int(r["TotalDurationNs"])) for r in csv.DictReader(f)}


def main():
    cli, d = sys.argv[1], sys.argv[2]
    if not os.path.exists(os.path.join(d, "results.db")):
        print("no results.db: skipped")
        sys.exit(77)
    out = subprocess.run([cli, "export", "--format", "perfetto-json",
                          os.path.join(d, "results.db"), "-"], check=True, capture_output=True,
                         text=True).stdout
    got = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for e in json.loads(out, parse_float=str)["traceEvents"]:
        if e.get("ph") != "X":
            continue
        name = e["name"]
        if e.get("cat") == "gpu_memcpy":
            name = name.split(" ")[1] if " " in name else name
        got[e.get("cat")][name][0] += 1
        got[e.get("cat")][name][1] += ns(e["dur"])
    problems = []
    for csv_name, cat, rename in (("results.stats.csv", "kernel", None),
                                  ("results.hip_stats.csv", "cuda_runtime", None),
                                  ("results.copy_stats.csv", "gpu_memcpy", COPY_NAMES)):
        want = csv_stats(os.path.join(d, csv_name))
        for name, (calls, total) in want.items():
            key = rename.get(name, name) if rename else name
            have = tuple(got[cat].get(key, (0, 0)))
            if have != (calls, total):
                problems.append(f"{csv_name} {name}: Strata {have}, rocprof ({calls}, {total})")
        if sum(n for n, _ in got[cat].values()) != sum(c for c, _ in want.values()):
            problems.append(f"{cat}: {dict(got[cat])} against {want}")
    print(f"{d}: " + ("as rocprof's own CSVs" if not problems else "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
