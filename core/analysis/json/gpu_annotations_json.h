#pragma once
// GPU time by GPU-side user annotation (analysis/ops/gpu_annotations.h) as `strata-cli stats
// --json` prints it under "gpu_annotations"; times in microseconds, one object per name:
//   [{"name", "ops", "kernels", "gpu_us", "share", "annotations", "annotated_us"}]
// (empty where the trace has no gpu_user_annotation).
#include "analysis/ops/gpu_annotations.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json gpuAnnotationsToJson(const GpuAnnotations& a);

} // namespace strata
