#!/usr/bin/env python3
"""Step time by role (issue 46) computed from a Chrome/Kineto JSON trace's raw events, with no
code of Strata's, and compared with `strata-cli breakdown --json` ("step_roles").

The rule is the PyTorch profiler TensorBoard plugin's Overview, as docs/analysis.md ("Step time by
role") writes it down:
  events     'X' events typed by their lower-cased category: kernel / memcpy, gpu_memcpy /
             memset, gpu_memset (device); runtime, cuda_runtime, mtia_runtime, glow_runtime,
             xpu_runtime, privateuse1_runtime (runtime); cpu_op, operator, python (operator);
             user_annotation, gpu_user_annotation (annotation). Operators and CPU annotations
             named ProfilerStep#N are steps (the GPU's copies of them neither steps nor roles).
  roles      kernel (kernels not communication), memcpy, memset, communication (kernels sharing
             an External id with an operator named nccl:/gloo: broadcast, reduce, all_reduce,
             all_gather or reduce_scatter, and such operators and annotations), runtime, data
             loading (operators and annotations named enumerate(DataLoader)#...__next__ or
             enumerate(DataPipe)#...), CPU op (the other operators and annotations); each
             instant of a step goes to the first role in that order active then; other = rest.
  steps      each ProfilerStep's end moved to the latest end of the device ops linked (by
             correlation) to runtime calls lying wholly inside it, its start to no earlier than
             the previous step's end (the first: than the end of unlinked device work ending
             before the first step's device work); trailing steps with no device work, or under
             80 % of the step before, dropped.
  overlap    computation = kernel role ranges (operators where there is no kernel) in the step,
             communication likewise, their overlap, other = step + overlap - both.
Times are exact integer nanoseconds.

usage: expected_step_roles.py --check STRATA_CLI TRACE
       expected_step_roles.py --check STRATA_CLI --ranks TRACE TRACE...
--ranks: the ranks of a job given together; each rank's row of `strata-cli breakdown --json
TRACE...` ("ranks": its steps, their sums) and the whole over the ranks against each TRACE's own
expected figures (each rank's steps are its own).
Exit 0 when equal, 1 with the differences, 77 when a trace is absent or has no step.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys

from exact_trace import clip, intersect, length, load, ns, subtract, union

RUNTIME = {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime", "xpu_runtime",
           "privateuse1_runtime"}
COLLECTIVES = {lib + op for lib in ("nccl:", "gloo:")
               for op in ("broadcast", "reduce", "all_reduce", "all_gather", "reduce_scatter")}
ROLES = ["kernel", "memcpy", "memset", "communication", "runtime", "data_loading", "cpu_op"]






def kind(ev):
    cat = str(ev.get("cat", "")).lower()
    if cat == "kernel":
        return "kernel"
    if cat in ("memcpy", "gpu_memcpy"):
        return "memcpy"
    if cat in ("memset", "gpu_memset"):
        return "memset"
    if cat in RUNTIME:
        return "runtime"
    if cat in ("cpu_op", "operator", "python"):
        return "operator"
    if cat in ("user_annotation", "gpu_user_annotation"):
        return "annotation"
    return None












def expected(events):
    xs = [e for e in events if e.get("ph") == "X" and "ts" in e and kind(e)]
    for e in xs:
        e["_s"] = ns(e["ts"])
        e["_e"] = e["_s"] + max(ns(e.get("dur", 0)), 0)
        e["_k"] = kind(e)
    collective_ids = set()
    for e in xs:
        args = e.get("args") or {}
        if e["_k"] == "operator" and e.get("name") in COLLECTIVES:
            xid = args.get("External id", args.get("external id"))
            if xid is not None:
                collective_ids.add(xid)
    roles = {r: [] for r in ROLES}
    steps = []
    for e in xs:
        k, name, args = e["_k"], str(e.get("name", "")), e.get("args") or {}
        span = (e["_s"], e["_e"])
        if k == "kernel":
            xid = args.get("External id", args.get("external id"))
            roles["communication" if xid in collective_ids and xid is not None else "kernel"].append(span)
        elif k in ("memcpy", "memset", "runtime"):
            roles[k].append(span)
        elif name.startswith("ProfilerStep#"):
            # A step on the CPU; the GPU's copy of the annotation is neither a step nor a role.
            if str(e.get("cat", "")).lower() != "gpu_user_annotation":
                steps.append([e["_s"], e["_e"], name])
        elif (name.startswith("enumerate(DataLoader)#") and name.endswith(".__next__")) or \
                name.startswith("enumerate(DataPipe)#"):
            roles["data_loading"].append(span)
        elif name in COLLECTIVES:
            roles["communication"].append(span)
        else:
            roles["cpu_op"].append(span)
    if not steps:
        return None
    steps.sort()
    # Outermost steps only (a step inside another is not one).
    kept = []
    for s in steps:
        if not kept or s[0] >= kept[-1][1]:
            kept.append(s)
    steps = kept
    # Device ops by correlation, runtime calls wholly inside a step.
    device = [e for e in xs if e["_k"] in ("kernel", "memcpy", "memset")]
    by_corr = {}
    for d in device:
        c = (d.get("args") or {}).get("correlation")
        if c is not None:
            by_corr.setdefault(c, []).append(d)
    first = [None] * len(steps)
    last = [None] * len(steps)
    count = [0] * len(steps)
    matched = set()
    for r in (e for e in xs if e["_k"] == "runtime"):
        for i, (s, e_, _) in enumerate(steps):
            if s <= r["_s"] and r["_e"] <= e_:
                for d in by_corr.get((r.get("args") or {}).get("correlation"), []):
                    first[i] = d["_s"] if first[i] is None else min(first[i], d["_s"])
                    last[i] = d["_e"] if last[i] is None else max(last[i], d["_e"])
                    count[i] += 1
                    matched.add(id(d))
                break
    left_out = 0
    if any(count):
        prev = steps[0][0]
        if count[0]:
            for d in device:
                if id(d) not in matched and d["_e"] < first[0]:
                    prev = max(prev, d["_e"])
        for i, st in enumerate(steps):
            start = max(prev, st[0])
            end = max(st[1], last[i] if count[i] else start, start)
            st[0], st[1] = start, end
            prev = end
        if len(steps) > 1:
            i = len(steps) - 1
            while i >= 0 and count[i] == 0:
                i -= 1
            if i >= 0:
                keep = i + 1
                if i > 0 and count[i - 1] * 0.8 > count[i]:
                    keep = i
                left_out = len(steps) - keep
                steps = steps[:keep]
    merged = {r: union(v) for r, v in roles.items()}
    slots = union([(s, e) for s, e, _ in steps])
    owned = {}
    for r in ROLES:
        owned[r] = intersect(slots, merged[r])
        slots = subtract(slots, owned[r])
    compute = merged["kernel"] if merged["kernel"] else merged["cpu_op"]
    comm = merged["communication"]
    both = intersect(compute, comm)
    out = []
    for s, e, name in steps:
        row = {"step": name, "total": e - s}
        for r in ROLES:
            row[r] = length(clip(owned[r], s, e))
        row["other"] = (e - s) - sum(row[r] for r in ROLES)
        row["computation"] = length(clip(compute, s, e))
        row["communication_all"] = length(clip(comm, s, e))
        row["overlap"] = length(clip(both, s, e))
        row["other_than_both"] = (e - s) + row["overlap"] - row["computation"] - row["communication_all"]
        out.append(row)
    return out, left_out


def compare_steps(want, got_steps, errors):
    if len(got_steps) != len(want):
        errors.append(f"steps: strata {len(got_steps)}, expected {len(want)}")
    for w, g in zip(want, got_steps):
        if g["step"] != w["step"]:
            errors.append(f"step name: strata {g['step']}, expected {w['step']}")
        pairs = [(k, g[k + "_us"], w[k]) for k in ROLES + ["other", "total"]]
        o = g["overlap"]
        pairs += [("computation", o["computation_us"], w["computation"]),
                  ("communication (overlap)", o["communication_us"], w["communication_all"]),
                  ("overlap", o["overlap_us"], w["overlap"]),
                  ("other (overlap)", o["other_us"], w["other_than_both"])]
        for key, have, exp in pairs:
            if int(round(have * 1000)) != exp:
                errors.append(f"{w['step']} {key}: strata {int(round(have * 1000))} ns, expected {exp} ns")


def summed(rows):
    """The figures of several expected steps added up, in the JSON's shape (ns)."""
    keys = ROLES + ["other", "total"]
    out = {k: sum(r[k] for r in rows) for k in keys}
    out["overlap"] = {"computation": sum(r["computation"] for r in rows),
                      "communication": sum(r["communication_all"] for r in rows),
                      "overlap": sum(r["overlap"] for r in rows),
                      "other": sum(r["other_than_both"] for r in rows)}
    out["steps_summed"] = len(rows)
    return out


def compare_sum(label, want, got, errors):
    if got["steps_summed"] != want["steps_summed"]:
        errors.append(f"{label} steps summed: strata {got['steps_summed']}, expected {want['steps_summed']}")
    pairs = [(k, got[k + "_us"], want[k]) for k in ROLES + ["other", "total"]]
    pairs += [("overlap " + k, got["overlap"][k + "_us"], v) for k, v in want["overlap"].items()]
    for key, have, exp in pairs:
        if int(round(have * 1000)) != exp:
            errors.append(f"{label} {key}: strata {int(round(have * 1000))} ns, expected {exp} ns")


def rank_of(path):
    """The rank a Kineto trace says it is (distributedInfo), else None."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    info = json.loads(data).get("distributedInfo") or {}
    return info.get("rank")


def check_ranks(cli, traces):
    got = json.loads(subprocess.run([cli, "breakdown", "--json"] + traces, check=True,
                                    capture_output=True, text=True).stdout)
    errors = []
    rows = got["ranks"]
    if sorted(r["file"] for r in rows) != sorted(traces):
        errors.append(f"ranks: strata {len(rows)} rows for {len(traces)} traces")
    ranks = [r["rank"] for r in rows]
    if ranks != sorted(ranks):
        errors.append(f"ranks not in rank order: {ranks}")
    every = []
    for row in rows:
        result = expected(load(row["file"]))
        if result is None:
            errors.append(f"{row['file']}: no ProfilerStep, yet a row")
            continue
        want, left_out = result
        label = f"rank {row['rank']}"
        if rank_of(row["file"]) not in (None, row["rank"]):
            errors.append(f"{label}: the file says rank {rank_of(row['file'])}")
        roles = row["step_roles"]
        if roles["tail_steps_left_out"] != left_out:
            errors.append(f"{label} tail steps left out: strata {roles['tail_steps_left_out']}, expected {left_out}")
        before = len(errors)
        compare_steps(want, roles["steps"], errors)
        errors[before:] = [f"{label}: {e}" for e in errors[before:]]
        compare_sum(label + " summed", summed(want), roles, errors)
        every += want
    compare_sum("whole", summed(every), got["whole"]["step_roles"], errors)
    for e in errors:
        print(e)
    print(f"{len(rows)} ranks, {len(every)} steps: {'equal' if not errors else str(len(errors)) + ' differences'}")
    return 1 if errors else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check", metavar="STRATA_CLI", required=True)
    p.add_argument("--ranks", action="store_true")
    p.add_argument("trace", nargs="+")
    a = p.parse_args()
    for t in a.trace:
        if not os.path.exists(t):
            print(f"skipped: {t} is absent")
            return 77
    if a.ranks:
        return check_ranks(a.check, a.trace)
    if len(a.trace) != 1:
        p.error("one TRACE, or --ranks")
    a.trace = a.trace[0]
    result = expected(load(a.trace))
    if result is None:
        print(f"skipped: {a.trace} has no ProfilerStep")
        return 77
    want, left_out = result
    got = json.loads(subprocess.run([a.check, "breakdown", "--json", a.trace], check=True,
                                    capture_output=True, text=True).stdout)["step_roles"]
    errors = []
    if got["tail_steps_left_out"] != left_out:
        errors.append(f"tail steps left out: strata {got['tail_steps_left_out']}, expected {left_out}")
    compare_steps(want, got["steps"], errors)
    for e in errors:
        print(e)
    print(f"{a.trace}: {len(want)} steps: {'equal' if not errors else str(len(errors)) + ' differences'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
