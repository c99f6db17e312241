#!/usr/bin/env python3
"""An Nsight Systems SQLite export's contents computed with Python's sqlite3 alone, independently
of Strata, and (--check) compared with what strata-cli makes of the file:

  expected_nsys.py FILE.sqlite                  prints the expected figures as JSON
  expected_nsys.py --check STRATA_CLI FILE...   exit 0 when Strata agrees, 1 with the differences

Figures: per device the kernel count and total kernel time (ns), the memcpy count and bytes per
copy kind, memset and sync counts; the runtime/driver API calls, OS runtime calls, NVTX ranges
per category (the domain's name, else "nvtx") and NVTX marks. Rows with no start or end, or an
end before the start, are left out (Strata skips and counts them). Strata's side: `summary
--json` (kernels and kernel time per device), `stats --json` (copies) and the events of `export
--format perfetto-json` (every slice by category).
"""
import json
import sqlite3
import sys
from collections import Counter, defaultdict

from strata_views import kernel_problems, script_main, views

COPY_KINDS = ["", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"]


def tables(c):
    return {r[0] for r in c.execute("select name from sqlite_master where type in ('table','view')")}


def valid(table):
    return f'select * from {table} where start is not null and "end" is not null and "end" >= start'


def expected(path):
    c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    have = tables(c)
    out = {"kernels": defaultdict(lambda: [0, 0]), "copies": defaultdict(lambda: [0, 0]),
           "memset": 0, "sync": 0, "api": 0, "osrt": 0, "nvtx": Counter(), "marks": 0}
    if "CUPTI_ACTIVITY_KIND_KERNEL" in have:
        for dev, n, t in c.execute(f'select deviceId, count(*), sum("end" - start) from '
                                   f'({valid("CUPTI_ACTIVITY_KIND_KERNEL")}) group by deviceId'):
            out["kernels"][str(dev)] = [n, t]
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in have:
        for kind, n, b in c.execute(f'select copyKind, count(*), sum(bytes) from '
                                    f'({valid("CUPTI_ACTIVITY_KIND_MEMCPY")}) group by copyKind'):
            out["copies"][COPY_KINDS[kind] if kind < len(COPY_KINDS) else ""] = [n, b]
    for table, key in (("CUPTI_ACTIVITY_KIND_MEMSET", "memset"),
                       ("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "sync"),
                       ("CUPTI_ACTIVITY_KIND_RUNTIME", "api"), ("OSRT_API", "osrt")):
        if table in have:
            out[key] = c.execute(f"select count(*) from ({valid(table)})").fetchone()[0]
    if "NVTX_EVENTS" in have:
        domains = {d: t for d, t in c.execute(
            "select domainId, text from NVTX_EVENTS where eventType = 75")}
        for dom, n in c.execute('select domainId, count(*) from NVTX_EVENTS where eventType in '
                                '(59, 60) and start is not null and "end" is not null and '
                                '"end" >= start and globalTid is not null group by domainId'):
            out["nvtx"][domains.get(dom, "nvtx")] += n
        out["marks"] = c.execute("select count(*) from NVTX_EVENTS where eventType = 34 and "
                                 "start is not null and globalTid is not null").fetchone()[0]
    return json.loads(json.dumps(out))


def check(cli, path):
    want = expected(path)
    full, got_copies, by_cat, marks = views(cli, path)
    summary = full["gpu"]
    problems = kernel_problems(summary, want["kernels"])
    if got_copies != want["copies"]:
        problems.append(f"copies {got_copies}, expected {want['copies']}")
    pairs = [("memset", summary["memset"], want["memset"]), ("sync", by_cat["cuda_sync"], want["sync"]),
             ("API calls", by_cat["cuda_runtime"] + by_cat["cuda_driver"], want["api"]),
             ("OS runtime calls", by_cat["osrt"], want["osrt"]), ("NVTX marks", marks, want["marks"])]
    pairs += [(f"NVTX ranges ({cat})", by_cat[cat], n) for cat, n in want["nvtx"].items()]
    for what, got, exp in pairs:
        if got != exp:
            problems.append(f"{what}: {got}, expected {exp}")
    print(f"{path}: " + ("as expected " + json.dumps(want) if not problems else "; ".join(problems)))
    return not problems


if __name__ == "__main__":
    script_main(expected, check)
