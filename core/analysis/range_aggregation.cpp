#include "analysis/range_aggregation.h"

#include <algorithm>
#include <cstdint>

namespace strata {

namespace {

bool overlapsRange(TimeNs s, TimeNs d, TimeRange r) {
    if (d <= 0) return s >= r.start && s < r.end;
    return s < r.end && s + d > r.start;
}

TimeNs clipped(TimeNs s, TimeNs d, TimeRange r) {
    const TimeNs b = std::max(s, r.start);
    const TimeNs e = std::min(s + d, r.end);
    return e > b ? e - b : 0;
}

} // namespace

RangeAggregation aggregateRange(const Trace& trace, TimeRange range,
                                const std::vector<TrackId>& tracks) {
    RangeAggregation out;
    out.range = range;
    if (range.empty()) return out;

    std::vector<TrackId> ids = tracks;
    if (ids.empty()) {
        for (TrackId t = 0; t < trace.tracks().size(); ++t) ids.push_back(t);
    }
    // Row of each name id: a flat table over the string pool (faster than hashing per slice).
    std::vector<uint32_t> rowOf(trace.strings().size(), UINT32_MAX);
    auto rowFor = [&](StringId name) -> RangeAggregateRow& {
        uint32_t& row = rowOf[name];
        if (row == UINT32_MAX) {
            row = static_cast<uint32_t>(out.rows.size());
            out.rows.push_back(RangeAggregateRow{name, 0, 0, 0, 0});
        }
        return out.rows[row];
    };

    for (TrackId t : ids) {
        if (t >= trace.tracks().size()) continue;
        const SliceColumns& c = trace.track(t).slices;
        if (c.size() == 0) continue;
        auto [first, last] = trace.track(t).overlapping(range.start, range.end);
        last = std::min<SliceIndex>(last, static_cast<SliceIndex>(c.size()));
        for (SliceIndex i = first; i < last; ++i) {
            if (!overlapsRange(c.start[i], c.dur[i], range)) continue;
            const TimeNs in = clipped(c.start[i], c.dur[i], range);
            RangeAggregateRow& row = rowFor(c.name[i]);
            ++row.count;
            row.total = addSaturating(row.total, in);
            row.self = addSaturating(row.self, in);
            row.maxDuration = std::max(row.maxDuration, in);
            ++out.sliceCount;
            // A child's time is not its parent's self time. The parent overlaps the range too
            // (it encloses the child), so its row exists or will be counted.
            const SliceIndex p = c.parent[i];
            if (p != kNoSlice && p < c.size() && in > 0) rowFor(c.name[p]).self -= in;
        }
    }
    // A zero-length child at the edge of a parent that ends where the range starts may have made
    // an empty row for the parent; drop such rows.
    std::erase_if(out.rows, [](const RangeAggregateRow& r) { return r.count == 0; });
    std::sort(out.rows.begin(), out.rows.end(),
              [](const RangeAggregateRow& a, const RangeAggregateRow& b) {
                  if (a.total != b.total) return a.total > b.total;
                  return a.name < b.name;
              });
    return out;
}

} // namespace strata
