#pragma once
// Inside the stand-in CUPTI: what its profiler host (fake_cupti_pm.cpp) asks of its range
// profiler (fake_cupti_range.cpp) to evaluate a range profiler's counter data image.
#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fake_cupti {

// Whether `image` is a counter data image the stand-in's range profiler initialised.
bool isRangeImage(const uint8_t* image, size_t size);
// The values of `names` (which the host object holding `configured` must hold) for range
// `index` of such an image, as cuptiProfilerHostEvaluateToGpuValues gives them.
CUptiResult evaluateRange(const uint8_t* image, size_t size, size_t index,
                          const std::vector<std::string>& configured, const char* const* names,
                          size_t count, double* values);

} // namespace fake_cupti
