"""What the independent checks of this folder share (expected_breakdown.py,
expected_step_roles.py, expected_idle_breakdown.py, expected_kernel_metrics.py), with no code of
Strata's: a Chrome/Kineto JSON trace's events read with exact decimals, times as integer
nanoseconds, and sets of [start, end) intervals by plain sweeps."""
import decimal
import gzip
import json


def load(path):
    """The trace's events, numbers with a fraction kept as exact decimals (no float rounding)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        doc = json.load(f, parse_float=decimal.Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def ns(value):
    """Microseconds as written (a number or a numeric string) to integer nanoseconds, exactly (a
    float of 1.7e15 us times 1000 would be rounded to 256 ns)."""
    return int((decimal.Decimal(str(value)) * 1000).to_integral_value(decimal.ROUND_HALF_EVEN))


def union(intervals):
    """Any (start, end) pairs as sorted, disjoint [start, end] lists; touching ones merge."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def subtract(base, cut):
    """The parts of the union `base` outside the union `cut`, by plain sweeping of both."""
    result = []
    for s, e in base:
        pieces = [(s, e)]
        for cs, ce in cut:
            nxt = []
            for ps, pe in pieces:
                if ce <= ps or cs >= pe:
                    nxt.append((ps, pe))
                    continue
                if cs > ps:
                    nxt.append((ps, cs))
                if ce < pe:
                    nxt.append((ce, pe))
            pieces = nxt
        result.extend(pieces)
    return result


def clip(ranges, lo, hi):
    """The parts of sorted, disjoint `ranges` inside [lo, hi)."""
    return [(max(s, lo), min(e, hi)) for s, e in ranges if min(e, hi) > max(s, lo)]


def intersect(a, b):
    """The intersection of two unions, pairwise (plain quadratic sweep)."""
    out = []
    for s, e in b:
        out.extend(clip(a, s, e))
    return union(out)


def length(intervals):
    return sum(e - s for s, e in intervals)
