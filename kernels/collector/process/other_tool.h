#pragma once
// Who else holds CUPTI when cuptiSubscribe fails with
// CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: CUPTI's own answer (cuptiSubscribe_v2's
// oldSubscriberName) plus what the process shows — NSYS_* variables (Nsight Systems), a
// CUDA_INJECTION64_PATH that is not this library, PyTorch's Kineto loaded in the process.
#include <string>

namespace strata {

// `self` is any address inside this library (to recognise our own CUDA_INJECTION64_PATH).
std::string likelyOtherTool(const char* oldSubscriberName, const void* self);

} // namespace strata
