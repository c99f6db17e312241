#!/usr/bin/env python3
"""AMD's SQLite profiles (rocprofv3 rocpd, rocmProfileData .rpd) computed with Python's sqlite3
alone, independently of Strata, and (--check) compared with what strata-cli makes of them:

  expected_amd.py FILE                    prints the expected figures as JSON
  expected_amd.py --check STRATA_CLI FILE...

Figures: per device the kernel count and total kernel time (ns); copies (count, bytes) per kind;
sets; HIP API calls (cuda_runtime) and roctx markers. Strata's side: `summary --json`, `stats
--json` and the slices of `export --format perfetto-json` by category.
"""
import json
import sqlite3
from collections import defaultdict

from strata_views import kernel_problems, script_main, views

VALID = 'start is not null and "end" is not null and "end" >= start'


def tables(c):
    return {r[0] for r in c.execute("select name from sqlite_master where type in ('table','view')")}


def rocpd(c):
    out = {"kernels": defaultdict(lambda: [0, 0]), "copies": {}, "memset": 0, "api": 0, "markers": 0}
    for dev, n, t in c.execute(
            f'select a.type_index, count(*), sum(k."end" - k.start) from rocpd_kernel_dispatch k '
            f'join rocpd_info_agent a on a.id = k.agent_id where k.{VALID.replace(" and ", " and k.")} '
            f'group by a.type_index'):
        out["kernels"][str(dev)] = [n, t]
    for cat, n in c.execute(f'select s.string, count(*) from rocpd_region r join rocpd_event e on '
                            f'e.id = r.event_id join rocpd_string s on s.id = e.category_id where '
                            f'r.{VALID.replace(" and ", " and r.")} group by s.string'):
        if cat.startswith("HIP_RUNTIME"):
            out["api"] += n
        elif cat.startswith("MARKER"):
            out["markers"] += n
    return out


def rpd(c):
    out = {"kernels": defaultdict(lambda: [0, 0]), "copies": defaultdict(lambda: [0, 0]),
           "memset": 0, "api": 0, "markers": 0}
    names = {i: s for i, s in c.execute("select id, string from rocpd_string")}
    bytes_of = {a: s for a, s in c.execute("select api_ptr_id, size from rocpd_copyapi")}
    call_of = {o: a for a, o in c.execute("select api_id, op_id from rocpd_api_ops")}
    kinds = {"CopyHostToDevice": "HtoD", "CopyDeviceToHost": "DtoH", "CopyDeviceToDevice": "DtoD"}
    for oid, gpu, start, end, typ in c.execute(
            f'select id, gpuId, start, "end", opType_id from rocpd_op where {VALID}'):
        t = names.get(typ, "")
        if t == "KernelExecution":
            out["kernels"][str(gpu)][0] += 1
            out["kernels"][str(gpu)][1] += end - start
        elif t.startswith("Copy"):
            k = kinds.get(t, "Unknown")
            out["copies"][k][0] += 1
            size = bytes_of.get(call_of.get(oid))
            out["copies"][k][1] += int(size) if isinstance(size, int) else 0
        elif t == "FillBuffer":
            out["memset"] += 1
    for name, in c.execute(f"select apiName_id from rocpd_api where {VALID}"):
        n = names.get(name, "")
        if n == "UserMarker":
            out["markers"] += 1
        elif "::writeRows" not in n and n != "hcc_activity_callback":
            out["api"] += 1
    return out


def expected(path):
    c = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = rocpd(c) if "rocpd_kernel_dispatch" in tables(c) else rpd(c)
    return json.loads(json.dumps(out))


def check(cli, path):
    want = expected(path)
    summary, copies, cats, _ = views(cli, path)
    gpu = summary["gpu"]
    problems = kernel_problems(gpu, want["kernels"])
    if copies != want["copies"]:
        problems.append(f"copies {copies}, expected {want['copies']}")
    for what, got, exp in (("memset", gpu["memset"], want["memset"]),
                           ("API calls", cats["cuda_runtime"], want["api"]),
                           ("markers", cats["user_annotation"], want["markers"])):
        if got != exp:
            problems.append(f"{what}: {got}, expected {exp}")
    print(f"{path}: " + ("as expected " + json.dumps(want) if not problems else "; ".join(problems)))
    return not problems


if __name__ == "__main__":
    script_main(expected, check)
