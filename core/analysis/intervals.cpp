#include "analysis/intervals.h"

#include <algorithm>

namespace strata {

Intervals unionOf(Intervals v) {
    std::sort(v.begin(), v.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    Intervals out;
    for (const Interval& i : v) {
        if (!out.empty() && i.start <= out.back().end)
            out.back().end = std::max(out.back().end, i.end);
        else
            out.push_back(i);
    }
    return out;
}

Intervals minus(const Intervals& from, const Intervals& cut) {
    Intervals out;
    size_t c = 0;
    for (const Interval& f : from) {
        TimeNs at = f.start;
        while (c < cut.size() && cut[c].end <= f.start) ++c;
        for (size_t k = c; k < cut.size() && cut[k].start < f.end && at < f.end; ++k) {
            if (cut[k].start > at) out.push_back({at, cut[k].start});
            at = std::max(at, cut[k].end);
        }
        if (at < f.end) out.push_back({at, f.end});
    }
    return out;
}

Intervals intersect(const Intervals& a, const Intervals& b) {
    Intervals out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs lo = std::max(a[i].start, b[j].start), hi = std::min(a[i].end, b[j].end);
        if (lo < hi) out.push_back({lo, hi});
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return out;
}

TimeNs lengthWithin(const Intervals& v, TimeNs lo, TimeNs hi) {
    auto it = std::lower_bound(v.begin(), v.end(), lo,
                               [](const Interval& i, TimeNs t) { return i.end <= t; });
    TimeNs sum = 0;
    for (; it != v.end() && it->start < hi; ++it)
        sum += std::min(it->end, hi) - std::max(it->start, lo);
    return sum;
}

TimeNs lengthOf(const Intervals& v) {
    TimeNs sum = 0;
    for (const Interval& i : v) sum += i.end - i.start;
    return sum;
}

} // namespace strata
