#pragma once
// What the GPU tests that record kernels/samples/gpu_metrics_probe share (tst_gpu_pm_sampling,
// tst_gpu_kernel_metrics): the probe's path in this build, and a metadata value as text.
#include "model/trace.h"

#include <QString>

namespace strata::test {

// Empty where kernels/samples are not built (no nvcc).
inline QString gpuProbePath() {
#ifdef STRATA_SAMPLES_DIR
    return QString(STRATA_SAMPLES_DIR) + "/gpu_metrics_probe";
#else
    return {};
#endif
}

// A metadata value, "<absent>" when the trace has none under `key`.
inline QString metadataText(const Trace& t, const char* key) {
    const auto it = t.metadata().find(key);
    return it == t.metadata().end() ? QString("<absent>") : QString::fromStdString(it->second);
}

} // namespace strata::test
