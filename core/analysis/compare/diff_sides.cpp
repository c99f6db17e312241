#include "analysis/compare/diff_sides.h"

#include "analysis/ops/op_stats.h"
#include "analysis/sections/section_stats.h"
#include "analysis/trace_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>

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
            {k.name, {k.time.count, k.time.total, k.time.mean, k.time.median, k.time.p95, 0, 0}});
    return sortedByName(std::move(out));
}

SideRows opSides(const OpStats& s) {
    SideRows out;
    out.reserve(s.cpuOps.size());
    for (const CpuOpRow& o : s.cpuOps)
        out.push_back(
            {o.name,
             {o.count, o.total, o.count ? double(o.total) / double(o.count) : 0, 0, 0, 0, 0}});
    return sortedByName(std::move(out));
}

SideRows copySides(const OpStats& s) {
    SideRows out;
    for (const CopyRow& c : s.copies)
        out.push_back(
            {copyDiffName(c.copyKind, c.pageable),
             {c.count, c.time, c.count ? double(c.time) / double(c.count) : 0, 0, 0, 0, 0}});
    return sortedByName(std::move(out));
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
                           {s.samples.count, TimeNs(std::llround(s.samples.total)), s.samples.mean,
                            TimeNs(std::llround(s.samples.median)),
                            TimeNs(std::llround(s.samples.p95)), 0, 0}});
    }
    return sortedByName(std::move(out));
}

} // namespace strata::diff_sides
