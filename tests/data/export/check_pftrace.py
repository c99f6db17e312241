#!/usr/bin/env python3
"""strata-cli export --format perfetto-proto against the same trace's Perfetto JSON export, the
.pftrace decoded by a protobuf wire reader written here (Perfetto's field numbers: Trace.packet 1;
TracePacket timestamp 8, sequence id 10, track_event 11, interned_data 12, sequence_flags 13,
track_descriptor 60; TrackDescriptor uuid 1, name 2, process 3, thread 4, parent_uuid 5,
counter 8; TrackEvent category_iids 3, debug_annotations 4, type 9, name_iid 10, track_uuid 11,
double_counter_value 44, flow_ids 47, terminating_flow_ids 48; InternedData event_categories 1,
event_names 2, debug_annotation_names 3 with iid 1, name 2).

  check_pftrace.py STRATA_CLI TRACE...

For each trace: every TYPE_SLICE_BEGIN has its TYPE_SLICE_END on its track, properly nested; the
slices (name, start, duration, in ns from the trace start) are, as a multiset, the JSON export's
X events (ts and dur in µs, exact to the ns); instants and counter samples are as many as the
JSON's; every flow id leaves one slice and ends at one other; every name and category iid was
interned before use; and the .pftrace read back by Strata gives the same `strata-cli summary`
as the trace itself (GPU figures, gaps, launch latency, counts). Exit 1 on any difference, 77
when no trace is given or found.
"""
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "formats"))
from wire import fields  # noqa: E402


def read_pftrace(path):
    data = open(path, "rb").read()
    names, cats = {}, {}
    open_slices = defaultdict(list)  # track -> [(ts, name)]
    slices, problems = [], []
    instants = counters = 0
    flow_out, flow_in = Counter(), Counter()
    for f, packet in fields(data):
        if f != 1:
            continue
        p = defaultdict(list)
        for ff, v in fields(packet):
            p[ff].append(v)
        for interned in p.get(12, []):
            for kind, entry in fields(interned):
                e = dict(fields(entry))
                table = {1: cats, 2: names}.get(kind)
                if table is not None:
                    table[e.get(1)] = e.get(2, b"").decode(errors="replace")
        if 11 not in p:
            continue
        ts = p[8][0] if 8 in p else 0
        ev = defaultdict(list)
        for ff, v in fields(p[11][0]):
            ev[ff].append(v)
        typ, track = ev.get(9, [0])[0], ev.get(11, [0])[0]
        for iid in ev.get(10, []):
            if iid not in names:
                problems.append(f"name iid {iid} used before it was interned")
        for iid in ev.get(3, []):
            if iid not in cats:
                problems.append(f"category iid {iid} used before it was interned")
        name = names.get(ev.get(10, [None])[0], "")
        if typ == 1:
            open_slices[track].append((ts, name))
            for fid in ev.get(47, []):
                flow_out[fid] += 1
            for fid in ev.get(48, []):
                flow_in[fid] += 1
        elif typ == 2:
            if not open_slices[track]:
                problems.append(f"an end at {ts} on track {track} with no slice open")
                continue
            start, n = open_slices[track].pop()
            slices.append((n, start, ts - start))
        elif typ == 3:
            instants += 1
        elif typ == 4:
            counters += 1
    for track, left in open_slices.items():
        if left:
            problems.append(f"{len(left)} slices left open on track {track}")
    for fid in set(flow_out) | set(flow_in):
        if flow_out[fid] != 1 or flow_in[fid] != 1:
            problems.append(f"flow {fid}: {flow_out[fid]} sources, {flow_in[fid]} ends")
    return slices, instants, counters, len(flow_out), problems


def read_json(path):
    events = json.load(open(path), parse_float=str)["traceEvents"]  # µs text, exact

    def ns(us):
        whole, _, frac = str(us).partition(".")
        sign = -1 if whole.startswith("-") else 1
        return int(whole) * 1000 + sign * int((frac + "000")[:3])

    slices = [(e["name"], ns(e["ts"]), ns(e.get("dur", 0))) for e in events if e.get("ph") == "X"]
    # Async slices (b/e, nestable by id) as slices too.
    open_async = defaultdict(list)
    for e in events:
        k = (e.get("pid"), e.get("cat"), e.get("id"), e.get("id2", {}).get("local") if isinstance(e.get("id2"), dict) else None)
        if e.get("ph") == "b":
            open_async[k].append(e)
        elif e.get("ph") == "e" and open_async[k]:
            b = open_async[k].pop()
            slices.append((b["name"], ns(b["ts"]), ns(e["ts"]) - ns(b["ts"])))
    instants = sum(1 for e in events if e.get("ph") in ("i", "I", "R"))
    counters = sum(len([k for k in e.get("args", {})]) for e in events if e.get("ph") == "C")
    return slices, instants, counters


def check(cli, trace):
    with tempfile.TemporaryDirectory() as d:
        pf, js = os.path.join(d, "t.pftrace"), os.path.join(d, "t.json")
        subprocess.run([cli, "export", "--format", "perfetto-proto", trace, pf], check=True,
                       capture_output=True)
        subprocess.run([cli, "export", "--format", "perfetto-json", trace, js], check=True,
                       capture_output=True)
        slices, instants, counters, flows, problems = read_pftrace(pf)
        jslices, jinstants, jcounters = read_json(js)
        size = (os.path.getsize(pf), os.path.getsize(js))
        # Read back by Strata: the same summary as the trace it came from.
        summary = lambda f: {k: v for k, v in json.loads(subprocess.run(
            [cli, "summary", "--json", f], check=True, capture_output=True, text=True).stdout).items()
            if k not in ("file", "load_ms", "analysis_ms", "warnings")}
        a, b = summary(trace), summary(pf)
        # Flows: both exports write launch -> op links as flows, which a trace may have had only
        # as correlation ids: the count read back is the JSON export's read back.
        a["flows"] = summary(js)["flows"]
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                problems.append(f"summary '{k}' read back differs: {json.dumps(b.get(k))[:160]} "
                                f"against {json.dumps(a.get(k))[:160]}")
    # Both from their first slice's start (the pftrace counts from the trace's start).
    def rebase(ss):
        first = min((x[1] for x in ss), default=0)
        return [(n, t - first, d) for n, t, d in ss]

    a, b = Counter(rebase(slices)), Counter(rebase(jslices))
    if a != b:
        only = list((a - b).items())[:3], list((b - a).items())[:3]
        problems.append(f"slices differ: {sum((a - b).values())} only in the pftrace {only[0]}, "
                        f"{sum((b - a).values())} only in the JSON {only[1]}")
    if instants != jinstants:
        problems.append(f"instants {instants}, JSON {jinstants}")
    if counters != jcounters:
        problems.append(f"counter samples {counters}, JSON {jcounters}")
    print(f"{trace}: {len(slices)} slices, {instants} instants, {counters} counter samples, "
          f"{flows} flows, {size[0]} bytes against {size[1]} of JSON: "
          + ("as the JSON export" if not problems else "; ".join(problems[:5])))
    return not problems


def main():
    cli, traces = sys.argv[1], [t for t in sys.argv[2:] if os.path.exists(t)]
    if not traces:
        print("no trace: skipped")
        sys.exit(77)
    sys.exit(0 if all([check(cli, t) for t in traces]) else 1)


if __name__ == "__main__":
    main()
