#!/usr/bin/env python3
"""Scales a real Chrome/Kineto trace up for load benchmarks: its events repeated, each copy
shifted past the previous one in time (ids, correlations and flow ids offset so they stay
unique), until the output reaches --mb megabytes of JSON. The other top-level keys are kept
once. --top-level-mb N adds large non-event top-level values as catapult traces carry them
("systemTraceEvents" as an object, "stackFrames", "samples"), N MB in all.

  python3 tests/bench/scale_trace.py ../shared/traces/hta__rank-0...json.gz /tmp/hta100.json --mb 100

--copies N writes exactly N copies instead (nsys_from_kineto.py --copies N writes the same events
as an Nsight export).
"""
import argparse
import gzip
import json


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        data = json.load(f)
    if isinstance(data, list):
        return {"traceEvents": data}
    return data


ID_ARGS = ("correlation", "External id", "Python id", "Python parent id", "Ev Idx")


def shifted(ev, dt, k, id_step):
    e = dict(ev)
    if isinstance(e.get("ts"), (int, float)):
        e["ts"] = e["ts"] + dt
    for key in ("id", "bind_id"):
        if isinstance(e.get(key), int):
            e[key] = e[key] + k * id_step
    args = e.get("args")
    if isinstance(args, dict):
        args = dict(args)
        for key in ID_ARGS:
            if isinstance(args.get(key), int) and args[key] > 0:
                args[key] = args[key] + k * id_step
        e["args"] = args
    return e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--top-level-mb", type=float, default=0)
    ap.add_argument("--copies", type=int, default=0)
    a = ap.parse_args()
    trace = load(a.input)
    events = trace.get("traceEvents", [])
    timed = [e for e in events if e.get("ph") != "M" and isinstance(e.get("ts"), (int, float))]
    t0 = min(e["ts"] for e in timed)
    t1 = max(e["ts"] + (e.get("dur", 0) if isinstance(e.get("dur"), (int, float)) else 0) for e in timed)
    span = (t1 - t0) * 1.01 + 1
    id_step = 10 ** 7
    one = sum(len(json.dumps(e)) + 2 for e in events)
    copies = a.copies or max(1, int(a.mb * 1e6 / max(one, 1)))
    with open(a.output, "w", encoding="utf-8", errors="surrogateescape") as out:
        out.write("{")
        for key, value in trace.items():
            if key != "traceEvents":
                out.write(json.dumps(key) + ": " + json.dumps(value) + ",\n")
        if a.top_level_mb > 0:
            n = int(a.top_level_mb * 1e6 / 3 / 120)
            sysev = {"events": [{"pid": i % 97, "tid": i, "ts": i * 10, "name": "sched_switch",
                                 "args": {"prev": "task%d" % i}} for i in range(n)]}
            frames = {str(i): {"name": "frame_%d" % i, "parent": str(i - 1)} for i in range(n)}
            samples = [{"cpu": 0, "tid": 1, "ts": i, "name": "cycles", "sf": i % 1000} for i in range(n)]
            out.write('"systemTraceEvents": ' + json.dumps(sysev) + ",\n")
            out.write('"stackFrames": ' + json.dumps(frames) + ",\n")
            out.write('"samples": ' + json.dumps(samples) + ",\n")
        out.write('"traceEvents": [\n')
        first = True
        for k in range(copies):
            for e in events:
                if e.get("ph") == "M" and k > 0:
                    continue
                out.write(("" if first else ",\n") + json.dumps(shifted(e, k * span, k, id_step)))
                first = False
        out.write("\n]}\n")


if __name__ == "__main__":
    main()
