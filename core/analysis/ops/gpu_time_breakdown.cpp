#include "analysis/ops/gpu_time_breakdown.h"

#include "analysis/intervals.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/kernel_category.h"

#include <algorithm>
#include <unordered_map>

namespace strata {

namespace {

enum class Bucket : uint8_t { Computation, Communication, Memcpy };

struct BucketedOp {
    TimeNs start = 0, end = 0;
    Bucket bucket = Bucket::Computation;
};

GpuTimeSplit splitOf(const std::vector<BucketedOp>& ops) {
    GpuTimeSplit s;
    if (ops.empty()) return s;
    Intervals all, byBucket[3];
    TimeNs first = ops.front().start, last = ops.front().end;
    for (const BucketedOp& op : ops) {
        all.push_back({op.start, op.end});
        byBucket[size_t(op.bucket)].push_back({op.start, op.end});
        first = std::min(first, op.start);
        last = std::max(last, op.end);
    }
    const Intervals comp = unionOf(std::move(byBucket[size_t(Bucket::Computation)]));
    const Intervals comm = unionOf(std::move(byBucket[size_t(Bucket::Communication)]));
    const Intervals copy = unionOf(std::move(byBucket[size_t(Bucket::Memcpy)]));
    s.ops = ops.size();
    s.total = last - first;
    s.computation = lengthOf(comp);
    s.communication = lengthOf(comm);
    s.exposedComm = lengthOf(minus(comm, comp));
    s.memcpy = lengthOf(copy);
    s.exposedMemcpy = lengthOf(minus(minus(copy, comp), comm));
    s.busy = lengthOf(unionOf(std::move(all)));
    s.idle = s.total - s.busy;
    return s;
}

// The step whose [start, end) holds t, or -1 (steps sorted by start, not overlapping).
long stepAt(const std::vector<TraceStep>& steps, TimeNs t) {
    auto it = std::upper_bound(steps.begin(), steps.end(), t,
                               [](TimeNs v, const TraceStep& s) { return v < s.start; });
    if (it == steps.begin()) return -1;
    --it;
    return t < it->end ? long(it - steps.begin()) : -1;
}

} // namespace

const char* breakdownOpsName(BreakdownOps ops) {
    return ops == BreakdownOps::Linked ? "linked" : "all";
}

GpuTimeBreakdown gpuTimeBreakdown(const Trace& trace, BreakdownOps which, TimeRange range,
                                  const std::string& stepPrefix) {
    return gpuTimeBreakdown(trace, collectGpuOps(trace, range), which, stepPrefix);
}

GpuTimeBreakdown gpuTimeBreakdown(const Trace& trace, const GpuOpList& list, BreakdownOps which,
                                  const std::string& stepPrefix) {
    GpuTimeBreakdown out;
    out.ops = which;
    const std::vector<TraceStep> steps = findSteps(trace, stepPrefix);
    std::unordered_map<StringId, Bucket> bucketOf; // by kernel name
    auto bucket = [&](const GpuOp& op) {
        const StringId name = trace.track(op.ref.track).slices.name[op.ref.index];
        auto [it, added] = bucketOf.try_emplace(name, Bucket::Computation);
        if (added) {
            const KernelCategory c = kernelCategory(op.kind, trace.str(name));
            it->second = c == KernelCategory::Communication ? Bucket::Communication
                         : c == KernelCategory::Memcpy      ? Bucket::Memcpy
                                                            : Bucket::Computation;
        }
        return it->second;
    };
    // The launch call decides only what is linked and which step an op is in.
    const bool needLaunch = which == BreakdownOps::Linked || !steps.empty();
    // Ops are sorted by device first: one device's run at a time.
    for (size_t i = 0; i < list.ops.size();) {
        const int32_t device = list.ops[i].device;
        std::vector<BucketedOp> ops;
        std::vector<std::vector<BucketedOp>> byStep(steps.size());
        for (; i < list.ops.size() && list.ops[i].device == device; ++i) {
            const GpuOp& op = list.ops[i];
            const SliceRef launch = needLaunch ? trace.launchOf(op.ref) : SliceRef{};
            if (which == BreakdownOps::Linked && !launch.valid()) {
                ++out.unlinkedLeftOut;
                continue;
            }
            const BucketedOp b{op.start, op.end, bucket(op)};
            ops.push_back(b);
            if (steps.empty()) continue;
            const long s = stepAt(steps, launch.valid() ? trace.start(launch) : op.start);
            if (s >= 0) byStep[size_t(s)].push_back(b);
        }
        if (ops.empty()) continue;
        DeviceTimeBreakdown d;
        d.device = device;
        d.split = splitOf(ops);
        for (size_t s = 0; s < steps.size(); ++s)
            if (!byStep[s].empty()) d.steps.push_back({steps[s], splitOf(byStep[s])});
        out.devices.push_back(std::move(d));
    }
    return out;
}

} // namespace strata
