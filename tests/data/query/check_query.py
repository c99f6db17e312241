#!/usr/bin/env python3
"""strata-cli query against figures computed here from the trace's JSON with Python's json module
alone (issue 48): kernel totals per name, kernel totals per ProfilerStep (a kernel in a step when
its start lies in [step start, step end)), copies per kind (count, bytes), and kernels per the
innermost cpu_op around their launch call (the runtime call of the same correlation id; the
cpu_op on the call's thread that contains it, the latest-starting one). Steps are the CPU's
ProfilerStep#N slices (not their gpu_user_annotation copies); a copy without "bytes" adds none. With several files, the
per-rank kernel count and time of the set (rank: distributedInfo.rank, else the file's position).

  check_query.py STRATA_CLI TRACE.json[.gz]...      exit 0 when every figure agrees
"""
import gzip
import json
import subprocess
import sys
from collections import defaultdict


def load(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open if gz else open)(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        d = json.load(f)
    return d if isinstance(d, dict) else {"traceEvents": d}


def ns(us):
    return round(float(us) * 1000)


def complete(events, cat):
    return [e for e in events if e.get("ph") == "X" and e.get("cat") == cat and "dur" in e]


def query(cli, sql, *files):
    out = subprocess.run([cli, "query", "--json", sql, *files], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def expected(trace):
    ev = trace["traceEvents"]
    kernels = complete(ev, "kernel")
    by_name = defaultdict(lambda: [0, 0])
    for k in kernels:
        by_name[k["name"]][0] += 1
        by_name[k["name"]][1] += ns(k["dur"])
    # The CPU's steps (not the GPU-side gpu_user_annotation copies of them).
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]) for e in ev
                   if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")
                   and e.get("cat") != "gpu_user_annotation")
    by_step = defaultdict(lambda: [0, 0])
    for k in kernels:
        t = ns(k["ts"])
        for s0, s1, name in steps:
            if s0 <= t < s1:
                by_step[name][0] += 1
                by_step[name][1] += ns(k["dur"])
    copies = defaultdict(lambda: [0, None])  # bytes: None (SQL's NULL) when no copy says
    for c in complete(ev, "gpu_memcpy"):
        kind = c["name"].split()[1] if c["name"].startswith("Memcpy ") else ""
        copies[kind][0] += 1
        if "bytes" in c.get("args", {}):
            copies[kind][1] = (copies[kind][1] or 0) + int(c["args"]["bytes"])
    # The launch of each correlation id, and each thread's cpu_ops.
    launches = {}
    for cat in ("cuda_runtime", "cuda_driver"):
        for e in complete(ev, cat):
            corr = e.get("args", {}).get("correlation")
            if corr is not None:
                launches[corr] = e
    ops = defaultdict(list)
    for e in complete(ev, "cpu_op"):
        ops[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    by_op = defaultdict(int)
    for k in kernels:
        call = launches.get(k.get("args", {}).get("correlation"))
        name = None
        if call is not None:
            c0, c1 = ns(call["ts"]), ns(call["ts"]) + ns(call["dur"])
            inside = [o for o in ops[(call["pid"], call["tid"])] if o[0] <= c0 and c1 <= o[1]]
            if inside:
                name = max(inside, key=lambda o: (o[0], -o[1]))[2]
        by_op[name] += 1
    return {"by_name": by_name, "by_step": by_step, "copies": copies, "by_op": by_op}


def compare(what, got, want, problems):
    if got != want:
        keys = sorted(set(got) | set(want), key=str)
        diff = [(k, got.get(k), want.get(k)) for k in keys if got.get(k) != want.get(k)]
        problems.append(f"{what}: {len(diff)} differ, e.g. {diff[:3]}")


def check(cli, path):
    want = expected(load(path))
    problems = []
    got = {r["name"]: [r["n"], r["t"]] for r in query(
        cli, "SELECT name, count(*) n, sum(dur) t FROM gpu_ops WHERE kind = 'kernel' GROUP BY name",
        path)}
    compare("kernels per name", got, dict(want["by_name"]), problems)
    got = {r["name"]: [r["n"], r["t"]] for r in query(
        cli, "SELECT s.name, count(*) n, sum(g.dur) t FROM steps s JOIN gpu_ops g ON g.ts >= s.ts "
        "AND g.ts < s.end WHERE g.kind = 'kernel' GROUP BY s.step", path)}
    compare("kernels per step", got, dict(want["by_step"]), problems)
    got = {(r["copy_kind"] or ""): [r["n"], r["b"]] for r in query(
        cli, "SELECT copy_kind, count(*) n, sum(bytes) b FROM gpu_ops WHERE kind = 'gpu_memcpy' "
        "GROUP BY copy_kind", path)}
    compare("copies per kind", got, dict(want["copies"]), problems)
    got = {r["cpu_op"]: r["n"] for r in query(
        cli, "SELECT o.name AS cpu_op, count(*) n FROM gpu_ops g LEFT JOIN slices o ON o.id = "
        "g.cpu_op_id WHERE g.kind = 'kernel' GROUP BY o.name", path)}
    compare("kernels per launching cpu_op", got, dict(want["by_op"]), problems)
    print(f"{path}: {sum(n for n, _ in want['by_name'].values())} kernels, "
          f"{len(want['by_step'])} steps, {sum(n for n, _ in want['copies'].values())} copies: "
          + ("ok" if not problems else "; ".join(problems)))
    return not problems


def check_set(cli, paths):
    want = {}
    for i, p in enumerate(paths):
        t = load(p)
        rank = t.get("distributedInfo", {}).get("rank", i)
        ks = complete(t["traceEvents"], "kernel")
        want[rank] = [len(ks), sum(ns(k["dur"]) for k in ks)]
    got = {r["rank"]: [r["n"], r["t"]] for r in query(
        cli, "SELECT rank, count(*) n, sum(dur) t FROM gpu_ops WHERE kind = 'kernel' GROUP BY rank",
        *paths)}
    problems = []
    compare("kernels per rank", got, want, problems)
    print(f"set of {len(paths)}: " + ("ok" if not problems else "; ".join(problems)))
    return not problems


if __name__ == "__main__":
    cli, files = sys.argv[1], sys.argv[2:]
    singles = [f for f in files if not f.startswith("--set=")]
    sets = [f[len("--set="):].split(",") for f in files if f.startswith("--set=")]
    ok = all([check(cli, f) for f in singles] + [check_set(cli, s) for s in sets])
    sys.exit(0 if ok else 1)
