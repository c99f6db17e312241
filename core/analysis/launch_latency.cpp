#include "analysis/launch_latency.h"

#include "analysis/gpu_ops.h"

#include <algorithm>
#include <tuple>

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
            continue;
        }
        const TimeNs latency = op.start - trace.start(launch);
        if (latency < 0) ++out.negative;
        latencies.push_back(latency);
        out.launches.push_back(KernelLaunch{op.ref, launch, latency});
    }
    std::sort(out.launches.begin(), out.launches.end(),
              [&trace](const KernelLaunch& a, const KernelLaunch& b) {
                  const TimeNs sa = trace.start(a.kernel), sb = trace.start(b.kernel);
                  return std::tie(sa, a.kernel) < std::tie(sb, b.kernel);
              });
    out.latency = summarizeDurations(latencies);
    return out;
}

} // namespace strata
