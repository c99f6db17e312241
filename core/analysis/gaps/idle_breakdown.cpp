#include "analysis/gaps/idle_breakdown.h"

#include "analysis/ops/hta_conventions.h"

namespace strata {

namespace {

// One interval of a stream, classified as HTA classifies it.
void classify(const Trace& trace, const GpuOp& op, TimeNs previousEnd, TimeNs kernelDelay, bool us,
              StreamIdle& s) {
    const TimeNs interval = op.start - previousEnd;
    const SliceRef launch = trace.launchOf(op.ref);
    if (!launch.valid()) ++s.withoutLaunch;
    if (launch.valid() && htaStart(trace.start(launch), us) > previousEnd) {
        s.split.hostWait += interval;
        ++s.split.hostWaitIntervals;
    } else if (interval < kernelDelay) {
        s.split.kernelWait += interval;
        ++s.split.kernelWaitIntervals;
    } else {
        s.split.other += interval;
        ++s.split.otherIntervals;
    }
}

} // namespace

IdleBreakdown idleBreakdown(const Trace& trace, const GpuOpList& list, TimeNs kernelDelay,
                            bool htaMicroseconds) {
    IdleBreakdown out;
    out.kernelDelay = kernelDelay;
    const std::vector<GpuOp>& ops = list.ops;
    TimeNs previousEnd = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
        const GpuOp& op = ops[i];
        if (op.stream == -1) continue; // HTA: stream -1 is not a stream
        const bool first = out.streams.empty() || out.streams.back().device != op.device ||
                           out.streams.back().stream != op.stream;
        if (first) {
            StreamIdle s;
            s.device = op.device;
            s.stream = op.stream;
            out.streams.push_back(s);
        } else {
            classify(trace, op, previousEnd, kernelDelay, htaMicroseconds, out.streams.back());
        }
        ++out.streams.back().ops;
        previousEnd = op.end;
    }
    return out;
}

} // namespace strata
