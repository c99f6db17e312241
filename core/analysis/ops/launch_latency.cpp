#include "analysis/ops/launch_latency.h"

#include "analysis/ops/gpu_ops.h"

namespace strata {

LaunchLatencyStats computeLaunchLatency(const Trace& trace, TimeRange range) {
    return computeLaunchLatency(trace, collectGpuOps(trace, range));
}

LaunchLatencyStats computeLaunchLatency(const Trace& trace, const GpuOpList& list) {
    LaunchLatencyStats out;
    out.range = list.range;
    std::vector<TimeNs> latencies;
    for (const GpuOp& op : list.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        ++out.kernels;
        const SliceRef launch = trace.launchOf(op.ref);
        if (!launch.valid()) {
            ++out.unmatched;
            const SliceExtra* e = trace.extra(op.ref);
            if (!e || e->correlation < 0) ++out.noCorrelation;
            continue;
        }
        const TimeNs latency = op.start - trace.start(launch);
        if (latency < 0) ++out.negative;
        latencies.push_back(latency);
        out.launches.push_back(KernelLaunch{op.ref, launch, latency});
    }
    out.latency = summarizeDurations(latencies);
    return out;
}

} // namespace strata
