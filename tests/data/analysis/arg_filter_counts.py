#!/usr/bin/env python3
"""Find by argument (issue 48), computed from the raw JSON with Python's json module: for a real
Kineto trace, a list of find-bar queries and how many events each should find, printed as one JSON
array of [query, slices, instants]. tst_arg_filter runs each query through Strata's search and
compares.

The rules, written here independently of Strata: a slice is an "X" event (GPU ones with ts 0 and
dur 0 are no slices: they have no time), an instant an "i"/"I" event; durations in ns are the
decimal µs times 1000 rounded half to even; an event on a GPU stream (kernel, gpu_memcpy,
gpu_memset, gpu_user_annotation) is on the stream its args name, else on its tid; grid and block count x*y*z; an arg's JSON value is
compared as json.dumps writes it (", " and ": "); text compares ignore case.

usage: arg_filter_counts.py TRACE   (exit 77 when the trace is absent)"""
import gzip, json, os, sys
from decimal import Decimal, ROUND_HALF_EVEN

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def ns(x):
    return int((Decimal(str(x)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def product(dims):
    p = 1
    for v in dims:
        p *= int(v)
    return p


def dumps(v):
    return json.dumps(v, ensure_ascii=False, default=str)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    if not os.path.exists(path):
        print("skip: %s is absent" % path, file=sys.stderr)
        return 77
    events = load(path)
    slices = [e for e in events if e.get("ph") == "X" and "dur" in e and
              not (e.get("cat") in GPU_CATS and ns(e.get("ts", 0)) == 0 and ns(e["dur"]) == 0)]
    instants = [e for e in events if e.get("ph") in ("i", "I")]
    args = lambda e: e.get("args", {})
    kernels = [e for e in slices if e.get("cat") == "kernel"]
    out = []

    def add(query, slice_test, instant_test=lambda e: False):
        out.append([query, sum(1 for e in slices if slice_test(e)),
                    sum(1 for e in instants if instant_test(e))])

    grid = lambda e: product(args(e)["grid"]) if isinstance(args(e).get("grid"), list) else None
    add("grid>1024", lambda e: (grid(e) or 0) > 1024)
    add("grid.x>=1000", lambda e: "grid" in args(e) and int(args(e)["grid"][0]) >= 1000)
    add("name~elementwise && grid>1024",
        lambda e: "elementwise" in e["name"].lower() and (grid(e) or 0) > 1024)
    add("block=[128, 1, 1]", lambda e: args(e).get("block") == [128, 1, 1])
    if kernels:
        # The longest kernel (the first of them): its correlation id and External id.
        k = max(kernels, key=lambda e: (ns(e["dur"]), -ns(e["ts"])))
        c = args(k).get("correlation")
        if c is not None:
            add("correlation=%d" % c, lambda e: args(e).get("correlation") == c)
            add("correlation=%d && cat=kernel" % c,
                lambda e: args(e).get("correlation") == c and e.get("cat") == "kernel")
        x = args(k).get("External id")
        if x is not None:
            add("External id=%d" % x, lambda e: args(e).get("External id") == x)
    add("registers>=64", lambda e: args(e).get("registers per thread", -1) >= 64)
    add("dur>10us", lambda e: ns(e["dur"]) > 10000)
    def stream(e):
        if e.get("cat") in GPU_CATS + ("gpu_user_annotation",):
            return args(e).get("stream", e.get("tid"))
        return args(e).get("stream")
    add("stream=7 && dur>=20us", lambda e: stream(e) == 7 and ns(e["dur"]) >= 20000)
    add("cat=cpu_op && dur<1us", lambda e: e.get("cat") == "cpu_op" and ns(e["dur"]) < 1000)
    dims = [args(e)["Input Dims"] for e in slices if "Input Dims" in args(e)]
    if dims:
        # The most frequent first input shape, as its JSON text.
        shapes = {}
        for d in dims:
            if d and isinstance(d[0], list) and d[0]:
                t = dumps(d[0])
                shapes[t] = shapes.get(t, 0) + 1
        shape = max(sorted(shapes), key=lambda t: shapes[t])
        add("Input Dims~" + shape,
            lambda e: "Input Dims" in args(e) and shape in dumps(args(e)["Input Dims"]))
        add("Concrete Inputs~false", lambda e: "Concrete Inputs" in args(e) and
            "false" in dumps(args(e)["Concrete Inputs"]).lower())
    add("Device Id=0 && Bytes<0", lambda e: False,
        lambda e: args(e).get("Device Id") == 0 and args(e).get("Bytes", 0) < 0)
    # The most frequent copy kind, by the copies' names ("Memcpy DtoD (Device -> Device)").
    kinds = {}
    for e in slices:
        if e.get("cat") == "gpu_memcpy" and e["name"].startswith("Memcpy "):
            k = e["name"].split()[1]
            kinds[k] = kinds.get(k, 0) + 1
    if kinds:
        kind = max(sorted(kinds), key=lambda k: kinds[k])
        add("kind=" + kind, lambda e: e.get("cat") == "gpu_memcpy" and
            e["name"].startswith("Memcpy %s " % kind))
    add("bytes>=1048576", lambda e: args(e).get("bytes", -1) >= 1048576,
        lambda e: args(e).get("bytes", args(e).get("Bytes", -1)) >= 1048576)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
