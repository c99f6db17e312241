#pragma once
// Folded levels of a CPU thread (issue 28): on a with_stack trace the first dozen levels of a
// thread are wrapper frames (`<module>`, `spawn_main`, `_bootstrap`, decorators) that each hold
// one slice across the whole view, and the ops and launch calls sit far below them. A run of two
// or more consecutive depths that hold exactly one slice each across the visible range is drawn
// as one level that says how many it holds; zooming or panning recomputes the runs, and a row the
// user expands shows every level unfolded.
#include "model/lod_summary.h"
#include "model/track.h"

#include <cstdint>
#include <vector>

namespace strata {

struct DepthFold {
    uint16_t first = 0; // the outermost depth of the run
    uint16_t count = 1; // depths it holds (a fold: 2 or more)
    friend bool operator==(const DepthFold&, const DepthFold&) = default;
};
using LaneFolds = std::vector<DepthFold>; // sorted, disjoint, each count >= 2

// The levels drawn for a lane of `depths` depths with these folds.
int foldedLevelCount(int depths, const LaneFolds& folds);
// The level that shows `depth`.
int levelOfDepth(int depth, const LaneFolds& folds);
// The depths level `level` shows: {depth, 1}, or a fold.
DepthFold depthsOfLevel(int level, const LaneFolds& folds);

// The runs of two or more consecutive depths of `track` that hold exactly one slice each across
// [t0, t1) (two binary searches per depth, through the track's level-of-detail index).
LaneFolds singleSliceRuns(const Track& track, const TrackLod& lod, TimeNs t0, TimeNs t1);

} // namespace strata
