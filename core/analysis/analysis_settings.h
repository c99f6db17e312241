#pragma once
// What an analysis of a trace is asked, beside the trace and its range: the one place the gap
// threshold and the step names are defined, with their defaults. The toolbar's "Launch gaps ≥"
// edits the GUI's copy (widgets/workspace/analyses.h), strata-cli's --gap-threshold-us and
// --step-name its own; every view and command reads them from here.
#include "model/time.h"

#include <string>

namespace strata {

struct AnalysisSettings {
    // GPU idle gaps strictly longer than this are explained, drawn and counted "over the
    // threshold" (analysis/gap_causes.h, gpu_gaps.h).
    static constexpr TimeNs kDefaultGapThreshold = 10'000; // 10 µs
    TimeNs gapThreshold = kDefaultGapThreshold;
    // Steps are the slices whose names start with this (analysis/trace_steps.h); empty: the
    // PyTorch profiler's "ProfilerStep#".
    std::string stepPrefix;

    friend bool operator==(const AnalysisSettings&, const AnalysisSettings&) = default;
};

} // namespace strata
