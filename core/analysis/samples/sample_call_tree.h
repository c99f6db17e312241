#pragma once
// A CallTree (analysis/call_tree.h) made of stack samples, for the flame graph and call tree views
// "from samples": top-down a node per call path from the outermost frame, bottom-up a node per
// path from the innermost frame outwards. count = samples, total and self = samples x the
// sampling period (analysis/samples/sample_period.h); a recursive function counted at every
// level it occurs, as the slice call tree does. Samples with no frame are left out.
#include "analysis/call_tree.h"
#include "analysis/samples/sample_selection.h"

namespace strata {

struct SampleTreeOptions {
    SampleSelection selection;
    bool bottomUp = false;
    TimeNs period = 0; // the time a sample stands for; 0: samplePeriod(trace), or 1 ns
};

CallTree buildSampleCallTree(const Trace& trace, const SampleTreeOptions& options = {});

} // namespace strata
