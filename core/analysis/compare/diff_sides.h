#pragma once
// The rows of one side of a diff (trace_diff.h), before they are matched: (name, figures) sorted
// by name, one per name, from that side's OpStats (kernels, CPU ops, copies) and in-kernel
// sections. Internal to trace_diff.cpp.
#include "analysis/compare/trace_diff.h"

#include <string>
#include <utility>
#include <vector>

namespace strata {

struct OpStats;

namespace diff_sides {

using SideRows = std::vector<std::pair<std::string, DiffSide>>;

// A side's count, total, mean and percentiles (the rest: 0).
inline DiffSide sideOf(uint64_t count, TimeNs total, double mean, TimeNs median = 0,
                       TimeNs p95 = 0) {
    DiffSide d;
    d.count = count;
    d.total = total;
    d.mean = mean;
    d.median = median;
    d.p95 = p95;
    return d;
}

// `rows` sorted by name, those of one name added up (count and total, the mean from them; the
// rows given are one per name but for copies of one kind).
SideRows sortedByName(SideRows rows);

// Kernels by name (the ungrouped table: one row per name): count, total, mean, median, p95.
SideRows kernelSides(const OpStats& s);
// CPU ops and annotations by name (with the GPU time each launched), copies by kind and host
// memory (copyDiffName): count, total, mean, and the median and p95 of the durations of `a`'s
// ops behind them (the CPU ops that start in its range, its copies).
SideRows opSides(const OpStats& s, const TraceAnalysis& a);
SideRows copySides(const OpStats& s, const TraceAnalysis& a);
// The in-kernel sections of one side: the sets of the launches whose kernel starts in its range
// (every set for the whole trace, imported arrays included), pooled per kernel ("kernel /
// section"). *ns ends false when a set has no clock rate (values in cycles).
SideRows sectionSides(const TraceAnalysis& a, bool* ns);

} // namespace diff_sides
} // namespace strata
