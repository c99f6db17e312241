#pragma once
// Build-time step: B/E edges of one track matched into slices.
#include "model/arg_store.h"
#include "model/build/slice_nester.h"
#include "util/pod_vector.h"

namespace strata {

// A B or E edge as the builder holds it until build().
struct RawEdge {
    RawSlice slice; // a B: the slice it opens (dur set when matched); an E: its ts, name, args
    bool isEnd = false;
};

// What matching left unmatched, for the warnings.
struct EdgeMatchCounts {
    size_t unmatchedEnds = 0; // E with no open B: skipped
    size_t openBegins = 0;    // B never ended: closed at the trace end
};

// Matches `edges` in time order (file order at equal times) and appends a slice per B to `out`.
// An E closes the innermost open B with the same name (an E without a name the innermost); an
// E's args are merged into its slice's. `edges` is cleared.
void matchEdges(PodVector<RawEdge>& edges, TimeNs traceEnd, ArgStore& args,
                PodVector<RawSlice>& out, EdgeMatchCounts& counts);

} // namespace strata
