#include "analysis/ranks/rank_totals.h"
// The times of several traces add up held at the int64 limit (model/time.h's addSaturating): each
// trace's times are in range, their sums over thousands of ranks need not be.

#include <algorithm>

namespace strata {

void SummaryTotals::add(const TraceSummary& s) {
    kernels += s.kernels.kernels;
    memcpys += s.kernels.memcpys;
    memsets += s.kernels.memsets;
    kernelTime = addSaturating(kernelTime, s.kernels.kernelTime);
    busy = addSaturating(busy, s.kernels.busyTime);
    for (const DeviceGapStats& d : s.gaps.byDevice) {
        gapsOverThreshold += d.gapsOverThreshold;
        idle = addSaturating(idle, d.idle);
    }
}

SummaryTotals& SummaryTotals::operator+=(const SummaryTotals& o) {
    kernels += o.kernels;
    memcpys += o.memcpys;
    memsets += o.memsets;
    gapsOverThreshold += o.gapsOverThreshold;
    kernelTime = addSaturating(kernelTime, o.kernelTime);
    busy = addSaturating(busy, o.busy);
    idle = addSaturating(idle, o.idle);
    return *this;
}

void GapTotals::add(const GapCauses& g) {
    for (size_t c = 0; c < byCause.size(); ++c) {
        byCause[c].count += g.byCause[c].count;
        byCause[c].idle = addSaturating(byCause[c].idle, g.byCause[c].idle);
    }
    for (const DeviceGapStats& d : g.devices) span = addSaturating(span, d.lastEnd - d.firstStart);
}

GapTotals& GapTotals::operator+=(const GapTotals& o) {
    for (size_t c = 0; c < byCause.size(); ++c) {
        byCause[c].count += o.byCause[c].count;
        byCause[c].idle = addSaturating(byCause[c].idle, o.byCause[c].idle);
    }
    span = addSaturating(span, o.span);
    return *this;
}

void StatsTotals::add(const OpStats& s, const GapCauses& g) {
    kernelTime = addSaturating(kernelTime, s.kernelTime);
    for (const DeviceGapStats& d : g.devices) {
        busy = addSaturating(busy, d.busy);
        idle = addSaturating(idle, d.idle);
    }
    for (const CategoryRow& c : s.categories) {
        CategoryRow& t = byCategory_[size_t(c.category)];
        t.category = c.category;
        t.count += c.count;
        t.time = addSaturating(t.time, c.time);
    }
    std::map<std::string, bool> seen; // a name grouped by launching op counts one rank once
    for (const KernelRow& k : s.kernels) {
        KernelTotalsRow& t = byName_[k.name];
        if (t.count == 0 || k.time.min < t.min) t.min = k.time.min;
        t.max = std::max(t.max, k.time.max);
        t.name = k.name;
        t.category = k.category;
        t.count += k.time.count;
        t.total = addSaturating(t.total, k.time.total);
        kernelCount += k.time.count;
        if (!seen[k.name]) ++t.ranks, seen[k.name] = true;
    }
}

void StatsTotals::finish() {
    TimeNs all = 0;
    categories.clear();
    for (const CategoryRow& c : byCategory_) all = addSaturating(all, c.time);
    for (size_t i = 0; i < byCategory_.size(); ++i) {
        CategoryRow c = byCategory_[i];
        c.category = KernelCategory(i);
        c.share = all > 0 ? double(c.time) / double(all) : 0.0;
        categories.push_back(c);
    }
    std::stable_sort(categories.begin(), categories.end(),
                     [](const CategoryRow& a, const CategoryRow& b) { return a.time > b.time; });
    kernels.clear();
    for (auto& [name, row] : byName_) {
        row.share = kernelTime > 0 ? double(row.total) / double(kernelTime) : 0.0;
        kernels.push_back(row);
    }
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const KernelTotalsRow& a, const KernelTotalsRow& b) {
                         return a.total != b.total ? a.total > b.total : a.name < b.name;
                     });
}

double busyShare(TimeNs busy, TimeNs span) {
    return span > 0 ? double(busy) / double(span) : 0.0;
}

} // namespace strata
