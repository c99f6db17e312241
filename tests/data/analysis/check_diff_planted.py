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


if __name__ == "__main__":
    main()
