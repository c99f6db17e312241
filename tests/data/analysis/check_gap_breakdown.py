#!/usr/bin/env python3
"""strata-cli gaps --json against an independent computation of where each gap's time went.

For every gap strata-cli lists with a breakdown (issue 27, core/analysis/gaps/gap_breakdown.h):
  1. its parts and its totals per kind each add up to the gap's length;
  2. the totals per kind equal this script's own sweep, from the raw trace: the op that ends the
     gap (the GPU op of that device, or stream, starting at the gap's end), its launch call (same
     correlation id), and on the launch call's thread, for each instant from the gap's start until
     that call returned, the innermost slice there:
       a cuda/hip runtime or driver call  -> blocked when it waits for the device (synchronize,
                                             synchronous copy or set, syncing alloc/free), else
                                             launch
       a user annotation or ProfilerStep  -> untraced (a range only: nothing traced below it)
       any other CPU slice                -> cpu
       no slice                           -> untraced
     and from the call's return to the gap's end -> queued;
  3. the cause follows from those totals (docs/analysis.md): launched before the gap began ->
     dependency; else blocked over half the gap -> synchronization; queued 20 us or more and over
     half -> dependency; launch + queued over half -> launch_overhead; else launch_bound.
Times are parsed as decimals (exact nanoseconds), as in expected_summary.py. A slice that starts
inside an open slice of its thread and ends after it is left out of the sweep: strata puts such a
slice on a lane of its own, off the launch call's track (ProfilerStep#6 of the TraceLens Qwen
trace, which ends after a Python frame it starts in). Python standard library only.

Exit 0 when every gap agrees, 1 with what differs, 77 when the trace is absent (skipped).

  check_gap_breakdown.py STRATA_CLI TRACE
"""
import bisect
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expected_summary import GPU_KINDS, LAUNCH_CATEGORIES, as_int, load_events, to_ns  # noqa: E402

SKIP = 77
KINDS = ("blocked", "launch", "cpu", "untraced", "queued")
# Calls that wait for the device, written from the CUDA and HIP documentation: any
# ...Synchronize; the synchronous (not ...Async) copies and sets; allocations and frees that
# synchronize. A suffix after '_' (cuMemcpyHtoD_v2, cudaMemcpy_ptds) is the same call.
BLOCKING = re.compile(
    r"^(.*Synchronize.*"
    r"|(cuda|hip)(Memcpy|Memcpy2D|Memcpy3D|Memset|MemcpyToSymbol|MemcpyFromSymbol"
    r"|MemcpyWithStream|Free|FreeHost|Malloc|MallocHost|HostAlloc|HostMalloc|HostFree)(_.*)?"
    r"|cu(MemcpyHtoD|MemcpyDtoH|MemcpyDtoD|Memcpy|MemsetD8|MemsetD32|MemFree|MemAlloc)(_.*)?)$")


PAGEABLE = set()  # correlation ids of copies to or from pageable memory (issue 44)


def kind_of(event):
    cat = str(event.get("cat", "")).lower()
    name = str(event.get("name", ""))
    if cat in LAUNCH_CATEGORIES:
        corr = (event.get("args") or {}).get("correlation")
        pageable = "Memcpy" in name and "Async" in name and corr in PAGEABLE
        return "blocked" if BLOCKING.match(name) or pageable else "launch"
    if cat == "user_annotation" or name.startswith("ProfilerStep#"):
        return "untraced"
    return "cpu"


def load(path):
    events = load_events(path)
    for e in events:
        if isinstance(e, dict) and str(e.get("cat", "")).lower() == "gpu_memcpy" and \
                "Pageable" in str(e.get("name", "")):
            PAGEABLE.add((e.get("args") or {}).get("correlation"))
    ops, threads, launches = [], {}, {}
    origin = None
    for e in events:
        # Strata's trace start: the earliest slice, instant or counter sample.
        if not isinstance(e, dict) or e.get("ph") not in ("X", "B", "E", "i", "I", "C"):
            continue
        if "ts" not in e:
            continue
        ts = to_ns(e.get("ts"))
        origin = ts if origin is None else min(origin, ts)
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        start, dur = ts, to_ns(e.get("dur"))
        if cat in GPU_KINDS:
            ops.append((as_int(args.get("device"), as_int(e.get("pid"), -1)),
                        as_int(args.get("stream"), as_int(e.get("tid"), -1)), start, start + dur,
                        as_int(args.get("correlation"), -1)))
            continue
        thread = (e.get("pid"), e.get("tid"))
        role = "annotation" if cat == "user_annotation" else "frame" if cat == "python_function" else ""
        ev = (start, start + dur, kind_of(e), role)
        threads.setdefault(thread, []).append(ev)
        if cat in LAUNCH_CATEGORIES and "correlation" in args:
            launches.setdefault(as_int(args["correlation"], -1), []).append((thread, ev))
    for key, evs in threads.items():
        evs.sort(key=lambda x: (x[0], -(x[1] - x[0])))
        threads[key] = mark_unnested(evs)
    return ops, threads, launches, origin


def frames_moved_aside(evs):
    """Indices of the slices strata moves off the thread's track because of a user annotation
    that Python frames cross only at its edges (issue 28: the annotation keeps its place when
    every slice crossing it is a Python frame covering less than half of it; those frames go to
    a lane of their own with what they called)."""
    moved = set()
    for a0, a1, _k, role in evs:
        if role != "annotation":
            continue
        crossing, ok = [], True
        for j, (s, t, _k2, r2) in enumerate(evs):
            if s >= a1:
                break
            if not ((s < a0 < t < a1) or (a0 < s < a1 < t)):
                continue
            inside = min(t, a1) - max(s, a0)
            if r2 != "frame" or 2 * inside >= a1 - a0:
                ok = False
                break
            crossing.append(j)
        if ok:
            moved.update(crossing)
    if not moved:
        return moved
    spans = [(evs[j][0], evs[j][1]) for j in moved]
    for i, (s, t, _k, _r) in enumerate(evs):  # with what they called
        if any(fs <= s and t <= ft for fs, ft in spans):
            moved.add(i)
    return moved


def mark_unnested(evs):
    """The thread's slices (sorted by start, longest first), each with a fourth field: True when it
    is off the launch call's track in strata: moved aside by an annotation's crossing frames
    (frames_moved_aside), or starting inside an open slice and ending after it, so not nesting
    (strata moves such a slice to a lane of its own; the trace's warning says so).
    """
    moved = frames_moved_aside(evs)
    out = [list(e[:3]) + [i in moved] for i, e in enumerate(evs)]
    stack = []  # indices of the open slices
    for i, (s, en, _k, off) in enumerate(out):
        if off:
            continue
        while stack and out[stack[-1]][1] <= s:
            stack.pop()
        if stack and en > out[stack[-1]][1]:
            out[i][3] = True
            continue  # not pushed: it does not nest
        stack.append(i)
    return [tuple(e) for e in out]


def sweep(evs, start, stop):
    """Per kind, the time of [start, stop) by the innermost slice there; None if not nested."""
    out = dict.fromkeys(KINDS, 0)
    if stop <= start:
        return out
    starts = [e[0] for e in evs]
    longest = max((e[1] - e[0] for e in evs), default=0)
    lo = bisect.bisect_left(starts, start - longest)
    hi = bisect.bisect_left(starts, stop)
    # A slice that does not nest is on a lane of its own in strata, not on the launch's track.
    inside = [e for e in evs[lo:hi] if e[1] > start and e[1] > e[0] and not e[3]]
    # Nested: each slice ends by the end of every open slice it starts inside.
    stack = []
    for s, en, _, _ in inside:
        while stack and stack[-1] <= s:
            stack.pop()
        if stack and en > stack[-1]:
            return None
        stack.append(en)
    points = sorted({start, stop} | {min(max(p, start), stop) for e in inside for p in e[:2]})
    for a, b in zip(points, points[1:]):
        if b <= a:
            continue
        covering = [e for e in inside if e[0] <= a and e[1] >= b]
        kind = max(covering, key=lambda e: (e[0], -(e[1] - e[0])))[2] if covering else "untraced"
        out[kind] += b - a
    return out


def cause_of(way, late, dur):
    """The cause the totals imply (docs/analysis.md, "The cause")."""
    if not late:
        return "dependency"
    if 2 * way["blocked"] > dur:
        return "synchronization"
    if way["queued"] >= 20_000 and 2 * way["queued"] > dur:
        return "dependency"
    if 2 * (way["launch"] + way["queued"]) > dur:
        return "launch_overhead"
    return "launch_bound"


def expected(ops, threads, launches, gap_start, gap_end, device, stream):
    """Every way the gap can be accounted (one per op that starts at its end), or []."""
    ways = []
    for d, s, start, _end, corr in ops:
        if d != device or start != gap_end or (stream is not None and s != stream):
            continue
        for thread, (cs, ce, _kind, _role) in launches.get(corr, []):
            returned = min(max(ce, gap_start), gap_end)
            way = sweep(threads[thread], gap_start, returned)
            if way is None:
                ways.append(None)
                continue
            way["queued"] += gap_end - returned
            way["cause"] = cause_of(way, ce > gap_start, gap_end - gap_start)
            ways.append(way)
    return ways


def main():
    cli, trace = sys.argv[1], sys.argv[2]
    if not os.path.exists(trace):
        print(f"skipped: {trace} is absent")
        return SKIP
    out = subprocess.run([cli, "gaps", "--json", "--gap-threshold-us", "10", trace], check=True,
                         capture_output=True).stdout
    gaps = json.loads(out)["gaps"]
    ops, threads, launches, origin = load(trace)
    problems, checked, unnested, attributed = [], 0, 0, 0
    for g in gaps:
        b = g["breakdown"]
        where = f"gap at {g['start_us']} us on {g['device']}/{g['stream']}"
        if b is None:
            if g["cause"] != "unattributed":
                problems.append(f"{where}: no breakdown for a {g['cause']} gap")
            continue
        attributed += 1
        dur = g["dur_us"]
        parts = sum(p["us"] for p in b["parts"])
        kinds = sum(b[k + "_us"] for k in KINDS)
        if abs(parts - dur) > 1e-3 or abs(kinds - dur) > 1e-3:
            problems.append(f"{where}: parts sum to {parts}, kinds to {kinds}, the gap is {dur}")
        start = origin + round(g["start_us"] * 1000)
        end = start + round(dur * 1000)
        ways = expected(ops, threads, launches, start, end, g["device"], g["stream"])
        mine = {k: round(b[k + "_us"] * 1000) for k in KINDS}
        mine["cause"] = g["cause"]
        if any(w is None for w in ways):
            unnested += 1
            continue
        if not ways:
            problems.append(f"{where}: no op with a launch call starts at its end")
        elif mine not in ways:
            problems.append(f"{where}: strata {mine}, expected {ways[0]}")
        else:
            checked += 1
    for p in problems[:20]:
        print("mismatch:", p)
    print(f"{os.path.basename(trace)}: {len(gaps)} gaps, {attributed} with a breakdown, "
          f"{checked} recomputed and equal, {unnested} not checkable (slices not nested), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
