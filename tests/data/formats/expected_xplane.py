#!/usr/bin/env python3
"""A JAX/XLA XSpace (.xplane.pb) decoded with a protobuf wire-format reader of its own (wire.py, no
protobuf library), independently of Strata, and (--check) compared with what strata-cli makes of
it:

  expected_xplane.py FILE
  expected_xplane.py --check STRATA_CLI FILE...

Figures: per GPU plane (/device:GPU:N) the events (kernels) and their total time in ns (each
duration_ps // 1000, as Strata keeps ns); on /host:CPU the events, and the runtime calls among
them (names starting hip, cuda or cu); the kernels whose correlation_id a host event shares.
Field numbers: XSpace.planes 1; XPlane name 2, lines 3, event_metadata 4, stat_metadata 5;
XLine id 1, events 4; XEvent metadata_id 1, offset_ps 2, duration_ps 3, stats 4; XStat
metadata_id 1, uint64 3, int64 4; metadata map entries key 1, value 2 with name 2, display_name 4.
"""
import json

from strata_views import kernel_problems, script_main, views
from wire import fields


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def plane_summary(p):
    name, lines, meta, stat_names = "", [], {}, {}
    for f, v in fields(p):
        if f == 2:
            name = v.decode()
        elif f == 3:
            lines.append(v)
        elif f in (4, 5):
            entry = dict(fields(v))
            value = dict(fields(entry.get(2, b"")))
            text = value.get(4) or value.get(2) or b""
            (meta if f == 4 else stat_names)[entry.get(1, 0)] = text.decode(errors="replace")
    events = []
    for line in lines:
        for f, v in fields(line):
            if f != 4:
                continue
            e = {"meta": 0, "dur_ps": 0, "corr": None}
            for ff, vv in fields(v):
                if ff == 1:
                    e["meta"] = vv
                elif ff == 3:
                    e["dur_ps"] = signed(vv)
                elif ff == 4:
                    s = dict(fields(vv))
                    if stat_names.get(s.get(1)) == "correlation_id":
                        e["corr"] = s.get(3, s.get(4))
            e["name"] = meta.get(e["meta"], "")
            events.append(e)
    return name, events


def expected(path):
    data = open(path, "rb").read()
    out = {"gpu": {}, "host_events": 0, "host_calls": 0, "linked_kernels": 0}
    host_corr, gpu_corr = set(), []
    for f, v in fields(data):
        if f != 1:
            continue
        name, events = plane_summary(v)
        if name.startswith("/device:GPU:") and events:
            dev = name[len("/device:GPU:"):]
            out["gpu"][dev] = [len(events), sum(e["dur_ps"] // 1000 for e in events)]
            gpu_corr += [e["corr"] for e in events if e["corr"] is not None]
        elif name == "/host:CPU":
            out["host_events"] = len(events)
            out["host_calls"] = sum(1 for e in events if e["name"].startswith(("hip", "cuda", "cu")))
            host_corr = {e["corr"] for e in events if e["corr"] is not None}
    out["linked_kernels"] = sum(1 for c in gpu_corr if c in host_corr)
    return out


def check(cli, path):
    want = expected(path)
    summary, _, cats, _ = views(cli, path)
    gpu = summary["gpu"]
    problems = kernel_problems(gpu, want["gpu"])
    host = cats["cuda_runtime"] + cats["host"]
    for what, got, exp in (("host events", host, want["host_events"]),
                           ("runtime calls", cats["cuda_runtime"], want["host_calls"]),
                           ("linked kernels", summary["launch_latency"]["matched"],
                            want["linked_kernels"])):
        if got != exp:
            problems.append(f"{what}: {got}, expected {exp}")
    print(f"{path}: " + ("as expected " + json.dumps(want) if not problems else "; ".join(problems)))
    return not problems


if __name__ == "__main__":
    script_main(expected, check)
