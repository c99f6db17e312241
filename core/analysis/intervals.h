#pragma once
// Sets of time intervals [start, end) as sorted, disjoint lists: the union of any intervals, the
// parts of one set inside or outside another, the total length. What the overlap-accounted
// figures (ops/gpu_time_breakdown.h, ops/step_roles.h) are made of.
#include "model/time.h"

#include <vector>

namespace strata {

struct Interval {
    TimeNs start = 0, end = 0;
};
using Intervals = std::vector<Interval>; // sorted, disjoint (as the functions below return)

// The union of any intervals, sorted; intervals that overlap or touch merge.
Intervals unionOf(Intervals v);
// The parts of `from` outside `cut`, and inside it (both sorted and disjoint).
Intervals minus(const Intervals& from, const Intervals& cut);
Intervals intersect(const Intervals& a, const Intervals& b);
TimeNs lengthOf(const Intervals& v);
// The length of `v` inside [lo, hi) (a binary search, then the intervals there).
TimeNs lengthWithin(const Intervals& v, TimeNs lo, TimeNs hi);

} // namespace strata
