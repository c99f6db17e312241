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
import subprocess
import sys
from collections import Counter, defaultdict

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


def strata(cli, path):
    run = lambda *a: subprocess.run([cli, *a], check=True, capture_output=True, text=True).stdout
    summary = json.loads(run("summary", "--json", path))["gpu"]
    stats = json.loads(run("stats", "--json", path))
    events = json.loads(run("export", "--format", "perfetto-json", path, "-"))["traceEvents"]
    by_cat = Counter(e.get("cat") for e in events if e.get("ph") == "X")
    marks = sum(1 for e in events if e.get("ph") in ("i", "I") and e.get("cat") != "__metadata")
    return summary, stats, by_cat, marks


def check(cli, path):
    want = expected(path)
    summary, stats, by_cat, marks = strata(cli, path)
    problems = []
    for dev, (n, t) in want["kernels"].items():
        got_t = round(summary["kernel_time_us_by_device"].get(dev, 0) * 1000)
        if got_t != t:
            problems.append(f"device {dev}: kernel time {got_t} ns, expected {t}")
    if summary["kernels"] != sum(n for n, _ in want["kernels"].values()):
        problems.append(f"kernels {summary['kernels']}, expected {want['kernels']}")
    got_copies = {c["kind"]: [c["count"], c["bytes"]] for c in stats["copies"]}
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


def main():
    if sys.argv[1] == "--check":
        ok = all([check(sys.argv[2], p) for p in sys.argv[3:]])
        sys.exit(0 if ok else 1)
    print(json.dumps(expected(sys.argv[1]), indent=1))


if __name__ == "__main__":
    main()
