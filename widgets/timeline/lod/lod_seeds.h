#pragma once
// Level-of-detail summaries built ahead, off the GUI thread, for a trace about to be shown: a
// live run's next picture (app/gui/actions/live_feed.h) arrives with every track summarised, so the
// timeline draws it whole at once instead of hatching its big tracks again each time. The
// timeline's LodCache takes them when it is reset to that trace; an offer for a trace that is
// never shown is dropped by the next offer or when that trace is gone.
#include "model/lod_summary.h"
#include "model/trace.h"

#include <memory>
#include <vector>

namespace strata {

using LodSeed = std::vector<std::unique_ptr<TrackLod>>; // by TrackId; null: not built

// Every track of `trace` summarised (on the calling thread).
LodSeed buildLodSeed(const Trace& trace);
// Offers `seed` for `trace` (replacing an earlier offer).
void offerLodSeed(const std::shared_ptr<const Trace>& trace, LodSeed seed);
// The summaries offered for `trace`, or none.
LodSeed takeLodSeed(const Trace* trace);

} // namespace strata
