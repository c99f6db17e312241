#pragma once
// Where the sampled stacks were (analysis/samples/sample_profile.h) as `strata-cli samples --json`
// prints it (the command adds the file, the selection and the timing):
//   {"samples", "empty_samples", "threads", "period_ns" | null,
//    "functions": [{"name", "self", "total", "self_share", "total_share"}]}
// (shares as fractions of "samples", 0..1; functions by self, descending).
#include "analysis/samples/sample_profile.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json sampleProfileToJson(const Trace& trace, const SampleProfile& profile);

} // namespace strata
