#include "analysis/compare/diff_sides.h"

#include "analysis/duration_stats.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/op_stats.h"
#include "analysis/sections/section_stats.h"
#include "analysis/trace_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace strata::diff_sides {

SideRows sortedByName(SideRows rows) {
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t kept = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (kept > 0 && rows[kept - 1].first == rows[i].first) {
            DiffSide& d = rows[kept - 1].second;
            d.count += rows[i].second.count;
            d.total += rows[i].second.total;
            d.gpuTotal += rows[i].second.gpuTotal;
            d.mean = d.count ? double(d.total) / double(d.count) : 0;
            continue;
        }
        if (kept != i) rows[kept] = std::move(rows[i]);
        ++kept;
    }
    rows.resize(kept);
    return rows;
}

SideRows kernelSides(const OpStats& s) {
    SideRows out;
    out.reserve(s.kernels.size());
    for (const KernelRow& k : s.kernels)
        out.push_back(
            {k.name, sideOf(k.time.count, k.time.total, k.time.mean, k.time.median, k.time.p95)});
    return sortedByName(std::move(out));
}

namespace {

using Durations = std::map<std::string, std::vector<TimeNs>>;

// Every CPU op and annotation that starts in `a`'s range, by name (op_stats.cpp's addCpuOps).
Durations cpuOpDurations(const TraceAnalysis& a) {
    const Trace& t = a.trace();
    std::unordered_map<StringId, std::vector<TimeNs>> byId;
    for (const Track& tr : t.tracks()) {
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        const auto first = std::lower_bound(c.start.begin(), c.start.end(), a.range().start);
        const auto last = std::lower_bound(first, c.start.end(), a.range().end);
        for (SliceIndex i = SliceIndex(first - c.start.begin());
             i < SliceIndex(last - c.start.begin()); ++i)
            if (isCpuOpKind(c.kind[i])) byId[c.name[i]].push_back(c.dur[i]);
    }
    Durations out;
    for (auto& [id, v] : byId) out.emplace(std::string(t.str(id)), std::move(v));
    return out;
}

// Every copy of `a`'s GPU ops, by copyDiffName (op_stats.cpp's copy rows).
Durations copyDurations(const TraceAnalysis& a) {
    const Trace& t = a.trace();
    Durations out;
    for (const GpuOp& op : a.gpuOps().ops) {
        if (op.kind != SliceKind::Memcpy) continue;
        const GpuActivity* g = t.gpu(op.ref);
        out[copyDiffName(g ? g->copyKind : 0, isPageableCopy(g))].push_back(op.duration());
    }
    return out;
}

// The median and p95 of each row from its durations.
SideRows withPercentiles(SideRows rows, Durations all) {
    for (auto& [name, side] : rows) {
        const auto it = all.find(name);
        if (it == all.end()) continue;
        const DurationStats st = summarizeDurations(it->second);
        side.median = st.median;
        side.p95 = st.p95;
    }
    return rows;
}

} // namespace

SideRows opSides(const OpStats& s, const TraceAnalysis& a) {
    SideRows out;
    out.reserve(s.cpuOps.size());
    for (const CpuOpRow& o : s.cpuOps) {
        DiffSide d = sideOf(o.count, o.total, o.count ? double(o.total) / double(o.count) : 0);
        d.gpuTotal = o.gpuTime;
        out.push_back({o.name, d});
    }
    return withPercentiles(sortedByName(std::move(out)), cpuOpDurations(a));
}

SideRows copySides(const OpStats& s, const TraceAnalysis& a) {
    SideRows out;
    for (const CopyRow& c : s.copies)
        out.push_back({copyDiffName(c.copyKind, c.pageable),
                       sideOf(c.count, c.time, c.count ? double(c.time) / double(c.count) : 0)});
    return withPercentiles(sortedByName(std::move(out)), copyDurations(a));
}

SideRows sectionSides(const TraceAnalysis& a, bool* ns) {
    const Trace& t = a.trace();
    const bool whole = a.range() == wholeTrace();
    std::map<std::string, std::vector<const SectionSet*>> byKernel;
    for (const SectionSet& set : t.sections()) {
        bool in = whole;
        if (!whole)
            for (SliceRef r : t.byCorrelation(set.correlation))
                if (t.track(r.track).kind == TrackKind::GpuStream &&
                    t.start(r) >= a.range().start && t.start(r) < a.range().end)
                    in = true;
        if (in) byKernel[set.kernel].push_back(&set);
    }
    SideRows out;
    for (const auto& [kernel, sets] : byKernel) {
        const SectionStats st = sectionStats(sets);
        *ns = *ns && st.ns;
        for (const SectionStat& s : st.sections)
            out.push_back({kernel + " / " + s.name,
                           sideOf(s.samples.count, TimeNs(std::llround(s.samples.total)),
                                  s.samples.mean, TimeNs(std::llround(s.samples.median)),
                                  TimeNs(std::llround(s.samples.p95)))});
    }
    return sortedByName(std::move(out));
}

} // namespace strata::diff_sides
