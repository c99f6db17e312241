#!/usr/bin/env python3
"""rocprofv3's CSV trace files as Strata reads them (opening one reads the run's others beside
it), against Python's csv module: kernels per agent (count, total ns), copies per direction, API
calls per Strata category (HIP runtime as cuda_runtime, HIP compiler as hip_compiler, the rest by
their domain) and markers (instants when they last 0, else annotations).

  check_rocprofv3_csv.py STRATA_CLI DIR     (DIR: the CSV files of one run, no prefix)
"""
import csv
import os
import sys
from collections import Counter, defaultdict

from strata_views import kernel_problems, views

DIRECTIONS = {"MEMORY_COPY_HOST_TO_DEVICE": "HtoD", "MEMORY_COPY_DEVICE_TO_HOST": "DtoH",
              "MEMORY_COPY_DEVICE_TO_DEVICE": "DtoD"}
CALL_FILES = ("hip_api_trace.csv", "hip_runtime_trace.csv", "hip_compile_trace.csv",
              "hsa_api_trace.csv", "marker_api_trace.csv", "rccl_api_trace.csv")


def rows(d, name):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def expected(d):
    kernels = defaultdict(lambda: [0, 0])
    for r in rows(d, "kernel_trace.csv"):
        kernels[r["Agent_Id"]][0] += 1
        kernels[r["Agent_Id"]][1] += int(r["End_Timestamp"]) - int(r["Start_Timestamp"])
    copies = Counter(DIRECTIONS.get(r["Direction"], "Unknown") for r in rows(d, "memory_copy_trace.csv"))
    calls, marks = Counter(), 0
    for name in CALL_FILES:
        for r in rows(d, name):
            dom, zero = r["Domain"], r["Start_Timestamp"] == r["End_Timestamp"]
            if dom.startswith("MARKER"):
                if zero:
                    marks += 1
                else:
                    calls["user_annotation"] += 1
            elif dom.startswith("HIP_RUNTIME"):
                calls["cuda_runtime"] += 1
            elif dom.startswith("HIP_COMPILER"):
                calls["hip_compiler"] += 1
            else:
                calls[dom] += 1
    return dict(kernels), dict(copies), calls, marks


def main():
    cli, d = sys.argv[1], sys.argv[2]
    if not os.path.exists(os.path.join(d, "kernel_trace.csv")):
        print("no kernel_trace.csv: skipped")
        sys.exit(77)
    kernels, copies, calls, marks = expected(d)
    summary, got_copies, cats, got_marks = views(cli, os.path.join(d, "kernel_trace.csv"))
    problems = kernel_problems(summary["gpu"], kernels)
    if {k: n for k, (n, _) in got_copies.items()} != copies:
        problems.append(f"copies {got_copies}, expected {copies}")
    for cat, n in calls.items():
        if cats[cat] != n:
            problems.append(f"{cat}: {cats[cat]}, expected {n}")
    if got_marks != marks:
        problems.append(f"markers {got_marks}, expected {marks}")
    print(f"{d}: " + ("as expected " + str((kernels, copies, dict(calls), marks))
                      if not problems else "; ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
