#pragma once
// Aggregate the slices in a time range by name: count, total and self time.
//
// A slice is in the range if it overlaps it (start < end of range and end > start of range; a
// zero-length slice counts if its start lies in [start, end)). Times are clipped to the range:
// total = sum of the clipped durations; self = the one definition of self time
// (SliceColumns::selfTime) applied to the parts inside the range: clipped duration minus the
// clipped durations of its direct children (the time the range spends in that name itself).
// With an unbounded range (the whole trace) these are the plain sums of dur and self.
#include "model/trace.h"

#include <string_view>
#include <vector>

namespace strata {

struct RangeAggregateRow {
    StringId name = 0;
    size_t count = 0;
    TimeNs total = 0;       // clipped wall time
    TimeNs self = 0;        // clipped self time
    TimeNs maxDuration = 0; // longest clipped duration
};

struct RangeAggregation {
    TimeRange range;
    size_t sliceCount = 0;               // slices that overlap the range
    std::vector<RangeAggregateRow> rows; // sorted by total, descending (ties: name id)
};

// tracks: restrict to these tracks (empty = every track with slices).
RangeAggregation aggregateRange(const Trace& trace, TimeRange range,
                                const std::vector<TrackId>& tracks = {});

} // namespace strata
