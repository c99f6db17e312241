#include "model/lod_summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata {

namespace {

constexpr uint64_t kBucketsPerSlice = 8; // a pyramid keeps at most count/8 base buckets
constexpr uint64_t kMinBaseBuckets = 4;
constexpr int kLinearProbe = 16;

int chooseBase(uint64_t span, uint64_t count) {
    const uint64_t target = std::max<uint64_t>(count / kBucketsPerSlice, kMinBaseBuckets);
    int k = 0;
    while (k < 62 && (span >> k) + 1 > target) ++k;
    return k;
}

uint8_t toCoverage(uint64_t covered, int level) {
    const double full = std::ldexp(1.0, level);
    const double c = std::round(255.0 * static_cast<double>(covered) / full);
    return static_cast<uint8_t>(std::clamp(c, 1.0, 255.0)); // present => at least 1
}

uint8_t bitLength(TimeNs d) {
    uint8_t n = 0;
    for (uint64_t v = static_cast<uint64_t>(std::max<TimeNs>(d, 0)); v; v >>= 1) ++n;
    return n;
}

TimeNs overlap(TimeNs s, TimeNs e, TimeNs bs, TimeNs be) {
    return std::max<TimeNs>(0, std::min(e, be) - std::max(s, bs));
}

} // namespace

int TrackLod::levelFor(double nsPerPixel) {
    if (!(nsPerPixel >= 2.0)) return 0;
    int k = static_cast<int>(std::floor(std::log2(nsPerPixel)));
    return std::clamp(k, 0, 62);
}

void TrackLod::build(const Track& track, TimeNs origin) {
    origin_ = origin;
    depths_.clear();
    counterLevels_.clear();
    const SliceColumns& c = track.slices;
    const size_t n = c.size();
    size_t depthCount = 0;
    for (size_t i = 0; i < n; ++i) depthCount = std::max<size_t>(depthCount, c.depth[i] + 1u);
    depths_.resize(depthCount);
    if (depthCount > 1) {
        std::vector<uint32_t> counts(depthCount, 0);
        for (size_t i = 0; i < n; ++i) ++counts[c.depth[i]];
        for (size_t d = 0; d < depthCount; ++d) depths_[d].index.reserve(counts[d]);
        for (size_t i = 0; i < n; ++i)
            depths_[c.depth[i]].index.push_back(static_cast<SliceIndex>(i));
        for (auto& d : depths_) d.count = static_cast<uint32_t>(d.index.size());
    } else if (depthCount == 1) {
        depths_[0].count = static_cast<uint32_t>(n);
    }
    for (auto& d : depths_) buildDepth(track, d);
    if (track.counter.size() > 0) buildCounter(track);
    built_ = true;
}

void TrackLod::buildDepth(const Track& track, Depth& d) {
    const SliceColumns& c = track.slices;
    if (d.count == 0) return;
    TimeNs lastEnd = origin_;
    for (uint32_t j = 0; j < d.count; ++j) {
        const SliceIndex s = at(d, j);
        lastEnd = std::max(lastEnd, std::max(c.end(s), c.start[s] + 1));
    }
    const uint64_t span = static_cast<uint64_t>(lastEnd - origin_);
    d.base = chooseBase(span, d.count);
    const int k = d.base;
    const uint64_t nb = (span >> k) + 1;
    const TimeNs width = TimeNs(1) << k;

    Level base;
    base.longest.assign(nb, kNoSlice);
    std::vector<uint64_t> covered(nb, 0);
    for (uint32_t j = 0; j < d.count; ++j) {
        const SliceIndex s = at(d, j);
        const TimeNs rs = std::max<TimeNs>(0, c.start[s] - origin_);
        const TimeNs re = std::max(rs, c.end(s) - origin_);
        const uint64_t b0 = static_cast<uint64_t>(rs) >> k;
        const uint64_t b1 = static_cast<uint64_t>(re > rs ? re - 1 : rs) >> k;
        for (uint64_t b = b0; b <= b1 && b < nb; ++b) {
            const TimeNs bs = static_cast<TimeNs>(b) << k;
            covered[b] += static_cast<uint64_t>(overlap(rs, re, bs, bs + width));
            SliceIndex& l = base.longest[b];
            if (l == kNoSlice || c.dur[s] > c.dur[l]) l = s;
        }
    }
    base.coverage.assign(nb, 0);
    base.lengthBits.assign(nb, 0);
    for (uint64_t b = 0; b < nb; ++b)
        if (base.longest[b] != kNoSlice) {
            base.coverage[b] = toCoverage(covered[b], k);
            base.lengthBits[b] = bitLength(c.dur[base.longest[b]]);
        }
    d.levels.push_back(std::move(base));

    while (d.levels.back().longest.size() > 1) {
        const Level& lo = d.levels.back();
        const size_t n = lo.longest.size();
        Level up;
        up.longest.assign((n + 1) / 2, kNoSlice);
        up.coverage.assign((n + 1) / 2, 0);
        up.lengthBits.assign((n + 1) / 2, 0);
        for (size_t b = 0; b < up.longest.size(); ++b) {
            const size_t a = 2 * b, z = 2 * b + 1;
            SliceIndex l = lo.longest[a];
            unsigned cov = lo.coverage[a];
            if (z < n) {
                const SliceIndex r = lo.longest[z];
                if (r != kNoSlice && (l == kNoSlice || c.dur[r] > c.dur[l])) l = r;
                cov += lo.coverage[z];
            }
            up.longest[b] = l;
            if (l != kNoSlice) {
                up.coverage[b] = static_cast<uint8_t>(std::max(1u, (cov + 1) / 2));
                up.lengthBits[b] = bitLength(c.dur[l]);
            }
        }
        d.levels.push_back(std::move(up));
    }
}

void TrackLod::buildCounter(const Track& track) {
    const CounterColumns& c = track.counter;
    const size_t n = c.size();
    const TimeNs lastEnd = c.ts[n - 1] + 1;
    const uint64_t span = static_cast<uint64_t>(std::max<TimeNs>(0, lastEnd - origin_));
    counterBase_ = chooseBase(span, n);
    const int k = counterBase_;
    const uint64_t nb = (span >> k) + 1;
    CounterLevel base;
    base.max.assign(nb, std::numeric_limits<double>::quiet_NaN());
    for (size_t i = 0; i < n; ++i) {
        const TimeNs rs = std::max<TimeNs>(0, c.ts[i] - origin_);
        const TimeNs re = std::max(rs + 1, (i + 1 < n ? c.ts[i + 1] : c.ts[i] + 1) - origin_);
        const uint64_t b1 = std::min<uint64_t>(static_cast<uint64_t>(re - 1) >> k, nb - 1);
        for (uint64_t b = static_cast<uint64_t>(rs) >> k; b <= b1; ++b) {
            double& m = base.max[b];
            if (std::isnan(m) || c.value[i] > m) m = c.value[i];
        }
    }
    counterLevels_.push_back(std::move(base));
    while (counterLevels_.back().max.size() > 1) {
        const auto& lo = counterLevels_.back().max;
        CounterLevel up;
        up.max.resize((lo.size() + 1) / 2);
        for (size_t b = 0; b < up.max.size(); ++b) {
            const double a = lo[2 * b];
            const double z = 2 * b + 1 < lo.size() ? lo[2 * b + 1] : std::nan("");
            up.max[b] = std::isnan(a) ? z : (std::isnan(z) ? a : std::max(a, z));
        }
        counterLevels_.push_back(std::move(up));
    }
}

uint32_t TrackLod::countAt(uint16_t depth) const {
    return depth < depths_.size() ? depths_[depth].count : 0;
}

SliceIndex TrackLod::sliceAtDepth(uint16_t depth, uint32_t i) const {
    return at(depths_[depth], i);
}

uint32_t TrackLod::firstNotBefore(const Track& track, uint16_t depth, TimeNs t) const {
    if (depth >= depths_.size()) return 0;
    const Depth& d = depths_[depth];
    const SliceColumns& c = track.slices;
    uint32_t lo = 0, hi = d.count;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const SliceIndex s = at(d, mid);
        const TimeNs e = c.end(s);
        const bool before = e < t || (e == t && c.start[s] < t);
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int TrackLod::baseLevel(uint16_t depth) const {
    return depth < depths_.size() ? depths_[depth].base : 0;
}

int TrackLod::levelCount(uint16_t depth) const {
    return depth < depths_.size() ? static_cast<int>(depths_[depth].levels.size()) : 0;
}

TrackLod::Cell TrackLod::cell(uint16_t depth, int level, int64_t bucket) const {
    if (depth >= depths_.size()) return {};
    const Depth& d = depths_[depth];
    const int li = level - d.base;
    if (li < 0 || li >= static_cast<int>(d.levels.size()) || bucket < 0) return {};
    const Level& l = d.levels[li];
    if (static_cast<size_t>(bucket) >= l.longest.size()) return {};
    return {l.longest[bucket], l.coverage[bucket]};
}

void TrackLod::query(const Track& track, uint16_t depth, TimeNs t0, TimeNs t1, int level,
                     std::vector<LodSpan>& out) const {
    if (depth >= depths_.size() || t1 <= t0) return;
    const Depth& d = depths_[depth];
    if (d.count == 0) return;
    level = std::clamp(level, 0, 62);
    if (level >= d.base)
        queryPyramid(track, d, t0, t1, level, out);
    else
        queryWalk(track, d, t0, t1, level, out);
}

namespace {
// Adds bucket [bs, be) with its longest slice to the run at the back of `out` (from `first` on)
// or starts a new run.
void addMerged(const SliceColumns& c, std::vector<LodSpan>& out, size_t first, TimeNs bs, TimeNs be,
               SliceIndex longest, uint8_t coverage) {
    if (out.size() > first && out.back().merged && out.back().end >= bs) {
        LodSpan& r = out.back();
        r.end = std::max(r.end, be);
        if (c.dur[longest] > c.dur[r.slice]) r.slice = longest;
        r.coverage = std::max(r.coverage, coverage);
        return;
    }
    out.push_back({bs, be, longest, coverage, true});
}
} // namespace

void TrackLod::queryPyramid(const Track& track, const Depth& d, TimeNs t0, TimeNs t1, int level,
                            std::vector<LodSpan>& out) const {
    const SliceColumns& c = track.slices;
    const int li = std::min(level - d.base, static_cast<int>(d.levels.size()) - 1);
    const int k = d.base + li;
    const Level& l = d.levels[li];
    if (t1 <= origin_) return;
    const uint64_t b0 = static_cast<uint64_t>(std::max<TimeNs>(0, t0 - origin_)) >> k;
    const uint64_t b1 =
        std::min<uint64_t>(static_cast<uint64_t>(t1 - 1 - origin_) >> k, l.longest.size() - 1);
    const size_t first = out.size();
    SliceIndex lastReal = kNoSlice;
    uint8_t runBits = 0; // bit length of the longest slice in the current merged run
    for (uint64_t b = b0; b <= b1; ++b) {
        const SliceIndex s = l.longest[b];
        if (s == kNoSlice) continue;
        const uint8_t bits = l.lengthBits[b];
        const bool wide = bits >= k + 2; // dur >= 2^(k+1): two buckets or more
        if (wide) {
            if (s != lastReal) out.push_back({c.start[s], c.end(s), s, 255, false});
            lastReal = s;
            continue;
        }
        const TimeNs bs = origin_ + (static_cast<TimeNs>(b) << k);
        const TimeNs be = bs + (TimeNs(1) << k);
        if (out.size() > first && out.back().merged && out.back().end >= bs) {
            LodSpan& r = out.back();
            r.end = std::max(r.end, be);
            if (bits > runBits) {
                r.slice = s;
                runBits = bits;
            }
            r.coverage = std::max(r.coverage, l.coverage[b]);
        } else {
            out.push_back({bs, be, s, l.coverage[b], true});
            runBits = bits;
        }
    }
}

void TrackLod::queryWalk(const Track& track, const Depth& d, TimeNs t0, TimeNs t1, int k,
                         std::vector<LodSpan>& out) const {
    const SliceColumns& c = track.slices;
    const TimeNs width = TimeNs(1) << k;
    const TimeNs wide = 2 * width;
    const size_t first = out.size();
    const uint16_t depth = static_cast<uint16_t>(&d - depths_.data());
    uint32_t j = firstNotBefore(track, depth, t0);
    TimeNs cur = std::max(t0, origin_);
    while (j < d.count) {
        const SliceIndex s = at(d, j);
        const TimeNs st = c.start[s];
        if (st >= t1) break;
        if (c.dur[s] >= wide) {
            out.push_back({st, c.end(s), s, 255, false});
            ++j;
            continue;
        }
        // A slice narrower than two buckets: merge the bucket it is in (from `cur` on).
        const TimeNs tt = std::max(st, cur);
        const TimeNs bs = origin_ + (((tt - origin_) >> k) << k);
        const TimeNs be = bs + width;
        SliceIndex longest = s;
        TimeNs covered = overlap(st, c.end(s), bs, be);
        uint32_t next = j + 1;
        bool saturated = false;
        int steps = 0;
        while (next < d.count) {
            const SliceIndex q = at(d, next);
            if (c.start[q] >= be || c.dur[q] >= wide) break;
            if (++steps > kLinearProbe) {
                saturated = true;
                break;
            }
            covered += overlap(c.start[q], c.end(q), bs, be);
            if (c.dur[q] > c.dur[longest]) longest = q;
            ++next;
        }
        if (saturated) {
            next = firstNotBefore(track, depth, be);
            covered = width; // many slices in one bucket: count it as full
        } else if (c.end(at(d, next - 1)) > be) {
            --next; // the last one goes on into the next bucket
        }
        addMerged(c, out, first, bs, be, longest, toCoverage(static_cast<uint64_t>(covered), k));
        j = next; // == j when s goes on into the next bucket (then cur moves past this one)
        cur = be;
    }
}

void TrackLod::queryCounter(const Track& track, TimeNs t0, TimeNs t1, int level,
                            std::vector<LodCounterCell>& out) const {
    const CounterColumns& c = track.counter;
    const size_t n = c.size();
    if (n == 0 || t1 <= t0 || counterLevels_.empty()) return;
    level = std::clamp(level, 0, 62);
    if (level >= counterBase_) {
        const int li = std::min(level - counterBase_, static_cast<int>(counterLevels_.size()) - 1);
        const int k = counterBase_ + li;
        const auto& m = counterLevels_[li].max;
        if (t1 <= origin_) return;
        const uint64_t b0 = static_cast<uint64_t>(std::max<TimeNs>(0, t0 - origin_)) >> k;
        const uint64_t b1 =
            std::min<uint64_t>(static_cast<uint64_t>(t1 - 1 - origin_) >> k, m.size() - 1);
        for (uint64_t b = b0; b <= b1; ++b) {
            if (std::isnan(m[b])) continue;
            const TimeNs bs = origin_ + (static_cast<TimeNs>(b) << k);
            out.push_back({bs, bs + (TimeNs(1) << k), m[b]});
        }
        return;
    }
    const TimeNs width = TimeNs(1) << level;
    size_t i = static_cast<size_t>(std::upper_bound(c.ts.begin(), c.ts.end(), t0) - c.ts.begin());
    if (i > 0) --i;
    auto endOf = [&](size_t k) { return k + 1 < n ? c.ts[k + 1] : c.ts[k] + 1; };
    while (i < n && c.ts[i] < t1) {
        const TimeNs e = endOf(i);
        if (e - c.ts[i] >= 2 * width) {
            out.push_back({c.ts[i], e, c.value[i]});
            ++i;
            continue;
        }
        const TimeNs bs = origin_ + (((std::max(c.ts[i], origin_) - origin_) >> level) << level);
        const TimeNs be = bs + width;
        double m = c.value[i];
        size_t next = i + 1;
        while (next < n && c.ts[next] < be && endOf(next) - c.ts[next] < 2 * width)
            m = std::max(m, c.value[next++]);
        if (!out.empty() && out.back().start == bs)
            out.back().max = std::max(out.back().max, m);
        else
            out.push_back({bs, be, m});
        i = next;
    }
}

size_t TrackLod::memoryBytes() const {
    size_t b = sizeof(*this) + depths_.capacity() * sizeof(Depth);
    for (const Depth& d : depths_) {
        b += d.index.capacity() * sizeof(SliceIndex) + d.levels.capacity() * sizeof(Level);
        for (const Level& l : d.levels)
            b += l.longest.capacity() * sizeof(SliceIndex) + l.coverage.capacity();
    }
    for (const auto& l : counterLevels_) b += l.max.capacity() * sizeof(double);
    return b;
}

} // namespace strata
