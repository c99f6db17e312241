#pragma once
// The whole of a set of traces (the ranks of a job) from each trace's own figures: what
// `strata-cli summary`, `gaps` and `stats` print under the per-rank rows of several FILEs. Only
// figures that add up across traces are combined: counts, times and idle by cause are summed;
// kernels by name keep their count, total, min and max (mean = total / count, share = total /
// all kernel time); medians and percentiles do not combine and stay per rank.
#include "analysis/gaps/gap_causes.h"
#include "analysis/ops/op_stats.h"
#include "analysis/trace_summary.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace strata {

struct SummaryTotals {
    uint64_t kernels = 0, memcpys = 0, memsets = 0, gapsOverThreshold = 0;
    TimeNs kernelTime = 0, busy = 0, idle = 0; // idle: the devices' gaps
    void add(const TraceSummary& s);
    SummaryTotals& operator+=(const SummaryTotals& o);
};

struct GapTotals {
    std::array<CauseTotals, kGapCauseCount> byCause{}; // the device gaps over the threshold
    TimeNs span = 0; // the devices' spans (first op to last end), summed
    void add(const GapCauses& g);
    GapTotals& operator+=(const GapTotals& o);
};

struct KernelTotalsRow {
    std::string name;
    KernelCategory category = KernelCategory::Other;
    uint64_t count = 0;
    TimeNs total = 0, min = 0, max = 0;
    double share = 0; // of all kernel time
    size_t ranks = 0; // traces it ran in
    double mean() const { return count ? double(total) / double(count) : 0.0; }
};

struct StatsTotals {
    uint64_t kernelCount = 0; // kernels (not copies or sets)
    TimeNs kernelTime = 0;
    TimeNs busy = 0, idle = 0;            // over the devices
    std::vector<CategoryRow> categories;  // after finish(): by time descending
    std::vector<KernelTotalsRow> kernels; // after finish(): by total descending, then name
    void add(const OpStats& s, const GapCauses& g);
    void finish(); // shares and order, once every trace is added

private:
    std::map<std::string, KernelTotalsRow> byName_;
    std::array<CategoryRow, kKernelCategoryCount> byCategory_{};
};

// busy / span, 0 for an empty span (a rank's busy share, and the whole's).
double busyShare(TimeNs busy, TimeNs span);

} // namespace strata
