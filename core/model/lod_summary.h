#pragma once
// Level-of-detail summary of one track, for drawing at any zoom without walking every slice.
//
// Per depth: the slices at that depth in start order (at one depth slices do not overlap, so their
// ends are sorted too), and a pyramid of power-of-two time buckets anchored at an absolute origin
// (the trace start): bucket b of level k covers [origin + b*2^k, origin + (b+1)*2^k). Each bucket
// keeps the longest slice overlapping it and how much of it is covered (0..255). Like Perfetto's
// slice mipmap. Levels are kept only from a base level up, chosen so a depth's pyramid has at most
// about count/8 buckets; finer queries walk the sorted slices with binary-search skips, so a query
// costs O(buckets in range + wide slices in range) times log n, whatever the track's size.
//
// Counter tracks get a max-per-bucket pyramid the same way (a sample's value holds until the next).
#include "model/track.h"

#include <cstdint>
#include <vector>

namespace strata {

// One piece of what covers a time range at one depth: a real slice (drawn with its own extents)
// or a merged run of buckets full of slices narrower than two buckets.
struct LodSpan {
    TimeNs start = 0;
    TimeNs end = 0;
    SliceIndex slice = kNoSlice; // the slice, or the longest slice of the merged run
    uint8_t coverage = 0;        // merged: fraction of the run's time covered, 0..255
    bool merged = false;
};

struct LodCounterCell {
    TimeNs start = 0;
    TimeNs end = 0;
    double max = 0.0;
};

class TrackLod {
public:
    // Builds the per-depth indices and pyramids. `origin` anchors the buckets (use the trace
    // start).
    void build(const Track& track, TimeNs origin);
    bool built() const { return built_; }
    TimeNs origin() const { return origin_; }

    // The bucket level to use for a scale: the largest k with 2^k <= nsPerPixel (0 if below 1).
    static int levelFor(double nsPerPixel);

    // Appends to `out` (not cleared) the spans at `depth` overlapping [t0, t1) at bucket level
    // `level`, in time order. Slices at least two buckets long come out as themselves; shorter
    // ones are merged into bucket-aligned runs (aligned to absolute time, so panning is stable).
    void query(const Track& track, uint16_t depth, TimeNs t0, TimeNs t1, int level,
               std::vector<LodSpan>& out) const;
    // Counter: per bucket the max value held in it; samples at least two buckets long come out
    // with their own extents. Appends to `out`.
    void queryCounter(const Track& track, TimeNs t0, TimeNs t1, int level,
                      std::vector<LodCounterCell>& out) const;

    // Number of slices at a depth, and the i-th of them (in start order).
    uint32_t countAt(uint16_t depth) const;
    SliceIndex sliceAtDepth(uint16_t depth, uint32_t i) const;
    // First position at `depth` whose slice is not wholly before t (end > t, or zero-length at t).
    uint32_t firstNotBefore(const Track& track, uint16_t depth, TimeNs t) const;

    // Pyramid inspection (tests): base level of a depth, number of stored levels, and one bucket.
    int baseLevel(uint16_t depth) const;
    int levelCount(uint16_t depth) const;
    struct Cell {
        SliceIndex longest = kNoSlice;
        uint8_t coverage = 0;
    };
    Cell cell(uint16_t depth, int level, int64_t bucket) const;

    size_t memoryBytes() const;

private:
    struct Level {
        std::vector<SliceIndex> longest; // kNoSlice = empty bucket
        std::vector<uint8_t> coverage;
        std::vector<uint8_t> lengthBits; // bit length of the longest slice's duration, so a query
                                         // need not touch the slice columns for merged buckets
    };
    struct Depth {
        std::vector<SliceIndex> index; // empty when the track has one depth (identity)
        uint32_t count = 0;
        int base = 0;
        std::vector<Level> levels; // levels[i] has buckets of 2^(base+i) ns
    };
    struct CounterLevel {
        std::vector<double> max; // NaN = no sample
    };

    SliceIndex at(const Depth& d, uint32_t i) const { return d.index.empty() ? i : d.index[i]; }
    void buildDepth(const Track& track, Depth& d);
    void buildCounter(const Track& track);
    void queryPyramid(const Track& track, const Depth& d, TimeNs t0, TimeNs t1, int level,
                      std::vector<LodSpan>& out) const;
    void queryWalk(const Track& track, const Depth& d, TimeNs t0, TimeNs t1, int level,
                   std::vector<LodSpan>& out) const;

    bool built_ = false;
    TimeNs origin_ = 0;
    std::vector<Depth> depths_;
    int counterBase_ = 0;
    std::vector<CounterLevel> counterLevels_;
};

} // namespace strata
