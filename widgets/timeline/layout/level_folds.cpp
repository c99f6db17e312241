#include "level_folds.h"

namespace strata {

int foldedLevelCount(int depths, const LaneFolds& folds) {
    for (const DepthFold& f : folds) depths -= f.count - 1;
    return depths;
}

int levelOfDepth(int depth, const LaneFolds& folds) {
    int level = depth;
    for (const DepthFold& f : folds) {
        if (depth < f.first) break;
        if (depth < f.first + f.count) return level - (depth - f.first);
        level -= f.count - 1;
    }
    return level;
}

DepthFold depthsOfLevel(int level, const LaneFolds& folds) {
    int depth = level;
    for (const DepthFold& f : folds) {
        const int at = levelOfDepth(f.first, folds);
        if (level < at) break;
        if (level == at) return f;
        depth += f.count - 1;
    }
    return {uint16_t(depth), 1};
}

LaneFolds singleSliceRuns(const Track& track, const TrackLod& lod, TimeNs t0, TimeNs t1) {
    LaneFolds out;
    int runStart = -1;
    auto close = [&](int end) {
        if (runStart >= 0 && end - runStart >= 2)
            out.push_back({uint16_t(runStart), uint16_t(end - runStart)});
        runStart = -1;
    };
    int d = 0;
    for (; d < track.maxDepth; ++d) {
        const auto depth = uint16_t(d);
        const uint32_t n = lod.countAt(depth);
        const uint32_t p = lod.firstNotBefore(track, depth, t0);
        const bool one = p < n && track.slices.start[lod.sliceAtDepth(depth, p)] < t1;
        if (!one) break; // nothing here in view: nothing deeper either
        const bool two = p + 1 < n && track.slices.start[lod.sliceAtDepth(depth, p + 1)] < t1;
        if (two) {
            close(d);
        } else if (runStart < 0) {
            runStart = d;
        }
    }
    close(d);
    return out;
}

} // namespace strata
