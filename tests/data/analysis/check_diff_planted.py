#!/usr/bin/env python3
"""strata-cli diff on a real PyTorch trace against a copy with planted changes, checked here
independently of Strata:

  - one kernel made 20 % slower (every occurrence of the kernel with the largest total),
  - one kernel added (a new name, after the trace's last GPU op),
  - one CPU op removed (every event of a name seen once per step),

then the diff must report exactly those three rows as changed / added / removed (every other
kernel, op and copy "same"), with the totals worked out here in integer nanoseconds. Also the
diff of the trace with itself: nothing added, removed or changed.

usage: check_diff_planted.py STRATA_CLI TRACE.json[.gz]   (exit 77 when TRACE is absent)
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def ns(us):
    return int(round(float(us) * 1000))


def diff(cli, a, b):
    out = subprocess.run([cli, "diff", "--json", a, b], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def step_of_launch(events, steps):
    """Each kernel event's step index (its launch call's, else its start's), or -1."""
    launch = {}
    for e in events:
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = ns(e["ts"])
    out = {}
    for k, e in enumerate(events):
        if e.get("cat") != "kernel" or e.get("ph") != "X":
            continue
        t = launch.get(e.get("args", {}).get("correlation"), ns(e["ts"]))
        out[k] = next((i for i, (a, b, _) in enumerate(steps) if a <= t < b), -1)
    return out


def two_steps(cli, trace, first, second):
    out = subprocess.run([cli, "diff", "--json", "--baseline-step", first, "--candidate-step",
                          second, trace], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def check_two_steps(cli, trace, j, tmp):
    """Two single steps of one run: judged against the spread of its other steps; then the same
    with the largest kernel made 1.5x slower in the candidate step only."""
    events = j["traceEvents"]
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]) for e in events
                   if str(e.get("name", "")).startswith("ProfilerStep#") and e.get("ph") == "X")
    step_of = step_of_launch(events, steps)
    per_step = {}
    for k, i in step_of.items():
        if i >= 0:
            per_step.setdefault(events[k]["name"], [0] * len(steps))[i] += ns(events[k]["dur"])
    top = max(per_step, key=lambda n: (sum(per_step[n]), n))
    others = [x for i, x in enumerate(per_step[top]) if i not in (1, 2)]
    mean = sum(others) / len(others)
    sd = (sum((x - mean) ** 2 for x in others) / (len(others) - 1)) ** 0.5
    first, second = steps[1][2], steps[2][2]
    d = two_steps(cli, trace, first, second)
    if d["noise"]["by_steps"] or d["noise"]["reference_steps"] != len(steps) - 2:
        fail(f"two steps: noise {d['noise']}")
    rows = {r["name"]: r for r in d["kernels"]}
    if abs(rows[top]["step_spread_us"] * 1000 - sd) > 1:
        fail(f"two steps: spread of {top[:50]} {rows[top]['step_spread_us']} us, expected {sd:.1f} ns")
    if rows[top]["baseline"]["count"] * 1000 and abs(rows[top]["baseline"]["total_us"] * 1000 - per_step[top][1]) > 1:
        fail(f"two steps: {top[:50]} baseline total {rows[top]['baseline']['total_us']} us, expected {per_step[top][1]} ns")
    # Each row's status follows the rule from its own difference and spread (Student's t, 95 %,
    # for the other steps - 1 degrees of freedom; 4.30 for 3 steps).
    t = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57}[len(steps) - 3]
    before = set()
    for table in ("kernels", "ops", "copies"):
        for r in d[table]:
            if r["status"] in ("added", "removed"):
                before.add(r["name"])
                continue
            delta = abs(r["delta_total_us"]) * 1000
            want = ("changed" if delta > t * r["step_spread_us"] * 1000 * 2 ** 0.5
                    and delta >= 0.01 * r["baseline"]["total_us"] * 1000 else "same")
            if r["status"] != want:
                fail(f"two steps: {table} {r['name'][:50]} is {r['status']}, the rule says {want}")
            if want == "changed":
                before.add(r["name"])
    # The largest kernel 1.5x slower in the second step only.
    planted = json.loads(json.dumps(j))
    added = 0
    for k, i in step_of.items():
        e = planted["traceEvents"][k]
        if i == 2 and e["name"] == top:
            d0 = ns(e["dur"])
            e["dur"] = (d0 * 3 // 2) / 1000.0
            added += ns(e["dur"]) - d0
    path = os.path.join(tmp, "planted_step.json")
    with open(path, "w") as f:
        json.dump(planted, f)
    d = two_steps(cli, path, first, second)
    changed = {r["name"]: r for t in ("kernels", "ops", "copies") for r in d[t]
               if r["status"] != "same"}
    if set(changed) != before | {top}:
        fail(f"planted step: changed {sorted(changed)[:3]}, expected {sorted(before | {top})[:3]}")
    got = changed[top]["delta_total_us"] * 1000
    want = per_step[top][2] + added - per_step[top][1]
    if abs(got - want) > 2:
        fail(f"planted step: delta {got} ns, expected {want} ns")
    return (f"{first} vs {second}: spread of the other {len(steps) - 2} steps, "
            f"{top[:40]}... sd {sd:.0f} ns, {len(before)} row(s) past it; 1.5x in {second}: "
            f"delta {want} ns found")


def check_gap_cause(cli, trace, j, tmp):
    """A gap's cause moved from CPU-bound to synchronization: the CPU op that held the launching
    thread through most of a CPU-bound gap (strata-cli gaps names it) renamed
    cudaStreamSynchronize, a blocking call. The diff's devices must show exactly that gap's idle
    moved from launch_bound to synchronization, every other figure of the device unchanged."""
    out = subprocess.run([cli, "gaps", "--json", trace], check=True, capture_output=True, text=True)
    gaps = json.loads(out.stdout)
    pick = [g for g in gaps["gaps"] if g["cause"] == "launch_bound" and g["dominant"]
            and g["dominant"]["kind"] == "cpu" and g["dominant"]["us"] > 0.5 * g["dur_us"]]
    if not pick:
        fail("gap cause: no CPU-bound gap held by one CPU op")
    g = pick[0]
    events = j["traceEvents"]
    first_op = min(ns(e["ts"]) for e in events if e.get("ph") == "X"
                   and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"))
    edge = next(x for x in gaps["edges"] if x["device"] == g["device"])
    origin = first_op - ns(edge["before_first_op_us"])
    a = origin + ns(g["start_us"])
    b = a + ns(g["dur_us"])
    planted = json.loads(json.dumps(j))
    # The op of that name that covers most of the gap.
    best, most = None, 0
    for e in planted["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e.get("name") == g["dominant"]["name"]:
            cover = min(b, ns(e["ts"]) + ns(e["dur"])) - max(a, ns(e["ts"]))
            if cover > most:
                best, most = e, cover
    if best is None or most < 0.5 * (b - a):
        fail(f"gap cause: no {g['dominant']['name']} covers half the gap")
    best["name"] = "cudaStreamSynchronize"
    best["cat"] = "cuda_runtime"
    # Both sides written here (Python's floats round the µs timestamps the same way on both).
    paths = []
    for name, doc in (("unplanted.json", j), ("planted_sync.json", planted)):
        paths.append(os.path.join(tmp, name))
        with open(paths[-1], "w") as f:
            json.dump(doc, f)
    out = subprocess.run([cli, "gaps", "--json", paths[0]], check=True, capture_output=True,
                         text=True)
    same = [x for x in json.loads(out.stdout)["gaps"] if abs(x["start_us"] - g["start_us"]) < 1]
    if not same:
        fail("gap cause: the gap is gone from the rewritten trace")
    g = same[0]
    d = diff(cli, paths[0], paths[1])
    dev = next(x for x in d["devices"] if x["device"] == g["device"])
    base, cand = dev["baseline"], dev["candidate"]
    moved = ns(g["dur_us"])
    for cause, want in (("launch_bound", -moved), ("synchronization", moved)):
        got = ns(cand["idle_by_cause_us"][cause]) - ns(base["idle_by_cause_us"][cause])
        if abs(got - want) > 1:
            fail(f"gap cause: {cause} moved by {got} ns, expected {want} ns")
    for cause in base["idle_by_cause_us"]:
        if cause not in ("launch_bound", "synchronization") and \
                base["idle_by_cause_us"][cause] != cand["idle_by_cause_us"][cause]:
            fail(f"gap cause: {cause} changed too")
    if base["busy_us"] != cand["busy_us"] or base["idle_us"] != cand["idle_us"]:
        fail("gap cause: busy or idle changed")
    return (f"the gap of {g['dur_us']} us held by {g['dominant']['name']} moved from CPU-bound "
            f"to synchronization")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    cli, trace = sys.argv[1], sys.argv[2]
    if not os.path.exists(trace):
        print("skip:", trace, "is absent")
        sys.exit(77)
    j = load(trace)
    events = j["traceEvents"]
    kernels = {}
    for e in events:
        if e.get("cat") == "kernel" and e.get("ph") == "X":
            c, t = kernels.get(e["name"], (0, 0))
            kernels[e["name"]] = (c + 1, t + ns(e["dur"]))
    slowed = max(kernels, key=lambda n: (kernels[n][1], n))
    op_counts = {}
    for e in events:
        if e.get("cat") == "cpu_op" and e.get("ph") == "X":
            op_counts[e["name"]] = op_counts.get(e["name"], 0) + 1
    steps = sum(1 for e in events if str(e.get("name", "")).startswith("ProfilerStep#"))
    removed = sorted(n for n, c in op_counts.items() if c == steps and "Backward" in n
                     and not n.startswith("autograd"))[0]

    slowed_total = 0
    out = []
    last_end, last_kernel = 0, None
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            end = ns(e["ts"]) + ns(e["dur"])
            if end > last_end:
                last_end = end
            if e.get("cat") == "kernel":
                last_kernel = e
        if e.get("cat") == "cpu_op" and e.get("name") == removed:
            continue
        if e.get("cat") == "kernel" and e.get("name") == slowed and e.get("ph") == "X":
            e = dict(e)
            d = ns(e["dur"]) * 12 // 10
            e["dur"] = d / 1000.0
            slowed_total += d
        out.append(e)
    added = dict(last_kernel)
    added["name"] = "planted_added_kernel"
    added["ts"] = (last_end + 10000) / 1000.0
    added["dur"] = 50.0
    added["args"] = {k: v for k, v in last_kernel.get("args", {}).items()
                     if k not in ("correlation", "External id")}
    out.append(added)
    j["traceEvents"] = out

    with tempfile.TemporaryDirectory() as tmp:
        cand = os.path.join(tmp, "candidate.json")
        with open(cand, "w") as f:
            json.dump(j, f)
        same = diff(cli, trace, trace)
        for table in ("kernels", "ops", "copies"):
            moved = [r["name"] for r in same[table] if r["status"] != "same"]
            if moved:
                fail(f"self-diff: {table} not the same: {moved[:3]}")
        d = diff(cli, trace, cand)

    def rows(table):
        return {r["name"]: r for r in d[table] if r["status"] != "same"}

    k, o, c = rows("kernels"), rows("ops"), rows("copies")
    if set(k) != {slowed, "planted_added_kernel"}:
        fail(f"kernels changed: {sorted(k)}")
    if set(o) != {removed}:
        fail(f"ops changed: {sorted(o)}")
    if c:
        fail(f"copies changed: {sorted(c)}")
    s = k[slowed]
    want_base = kernels[slowed][1]
    count = kernels[slowed][0]
    if s["status"] != "changed" or s["baseline"]["count"] != count or s["candidate"]["count"] != count:
        fail(f"slowed kernel: {s}")
    if abs(s["baseline"]["total_us"] * 1000 - want_base) > count:
        fail(f"slowed baseline total {s['baseline']['total_us']} us, expected {want_base} ns")
    if abs(s["candidate"]["total_us"] * 1000 - slowed_total) > count:
        fail(f"slowed candidate total {s['candidate']['total_us']} us, expected {slowed_total} ns")
    a = k["planted_added_kernel"]
    if a["status"] != "added" or a["candidate"]["count"] != 1 or a["candidate"]["total_us"] != 50.0:
        fail(f"added kernel: {a}")
    r = o[removed]
    if r["status"] != "removed" or r["baseline"]["count"] != op_counts[removed] or r["candidate"]["count"] != 0:
        fail(f"removed op: {r}")
    first = d["kernels"][0]["name"]
    if first != slowed:
        fail(f"largest effect first: {first}, expected {slowed}")
    print(f"ok: {steps} steps, by_steps={d['noise']['by_steps']}; slowed {slowed[:60]}... "
          f"{want_base} -> {slowed_total} ns; added 1; removed {removed} x{op_counts[removed]}")
    with tempfile.TemporaryDirectory() as tmp:
        print("ok:", check_two_steps(cli, trace, load(trace), tmp))
        print("ok:", check_gap_cause(cli, trace, load(trace), tmp))


if __name__ == "__main__":
    main()
