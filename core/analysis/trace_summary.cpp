#include "analysis/trace_summary.h"

#include "analysis/ops/gpu_ops.h"

#include <algorithm>

namespace strata {

TraceSummary summarizeTrace(const Trace& trace, const SummaryOptions& options) {
    return summarizeTrace(trace, collectGpuOps(trace, options.range), options);
}

TraceSummary summarizeTrace(const Trace& trace, const GpuOpList& ops,
                            const SummaryOptions& options) {
    TraceSummary s;
    s.slices = trace.sliceCount();
    s.counterSamples = trace.counterSampleCount();
    s.instants = trace.instantCount();
    s.flows = trace.flows().size();
    s.warnings = trace.warnings();
    s.kernels = computeKernelStats(trace, ops);
    s.gaps = computeGpuGaps(ops, options.gapThreshold);
    s.launch = computeLaunchLatency(trace, ops);
    const MemoryUsage computed = options.memory ? MemoryUsage{} : memoryUsage(trace);
    const MemoryUsage& memory = options.memory ? *options.memory : computed;
    s.memory = memoryPeaks(memory, options.range);
    s.warnings.insert(s.warnings.end(), memory.warnings.begin(), memory.warnings.end());
    return s;
}

} // namespace strata
