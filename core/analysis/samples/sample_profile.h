#pragma once
// Where the sampled stacks were (`strata-cli samples`, the GUI's samples table): per function
// (frame name), its self samples (it was the innermost frame) and total samples (it was anywhere
// in the stack; a recursive function counted once per sample), and their shares of every
// selected sample (empty stacks included), as `perf report --no-children` / py-spy top do.
#include "analysis/samples/sample_selection.h"
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct SampleFunction {
    StringId frame = 0;
    uint64_t self = 0;
    uint64_t total = 0;
    double selfShare = 0;  // self / SampleProfile::samples
    double totalShare = 0; // total / SampleProfile::samples
};

struct SampleProfile {
    uint64_t samples = 0;      // selected samples (the shares' whole)
    uint64_t emptySamples = 0; // of them, those with no frame (the thread ran no Python)
    uint32_t threads = 0;      // threads with selected samples
    TimeNs period = 0;         // the sampling period (samplePeriod), 0 unknown
    // By self, descending; then total, descending; then name.
    std::vector<SampleFunction> functions;
};

SampleProfile sampleProfile(const Trace& trace, const SampleSelection& selection = {});

} // namespace strata
