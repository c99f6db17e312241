#include "analysis/ops/launch_queue.h"

#include "analysis/ops/hta_conventions.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace strata {

namespace {

constexpr std::array<std::string_view, 12> kLaunchNames = {
    "cudaLaunchKernel",    "cudaLaunchKernelExC",
    "cuLaunchKernel",      "cuLaunchKernelEx",
    "cudaMemcpyAsync",     "cudaMemsetAsync",
    "hipLaunchKernel",     "hipExtModuleLaunchKernel",
    "hipMemcpyAsync",      "hipMemsetAsync",
    "hipMemcpyWithStream", "runFunction - job_prep_and_submit_for_execution",
};

// The start of the listed launch call on a CPU thread that carries `op`'s correlation, if any.
class LaunchFinder {
public:
    LaunchFinder(const Trace& trace, bool us) : trace_(trace), us_(us) {}
    bool find(SliceRef op, TimeNs* start) {
        const SliceExtra* e = trace_.extra(op);
        if (!e || e->correlation < 0) return false;
        for (SliceRef ref : trace_.byCorrelation(e->correlation)) {
            const Track& track = trace_.track(ref.track);
            if (track.kind != TrackKind::Thread || !listed(track.slices.name[ref.index])) continue;
            *start = htaStart(trace_.start(ref), us_);
            return true;
        }
        return false;
    }

private:
    bool listed(StringId name) {
        const auto it = known_.find(name);
        if (it != known_.end()) return it->second;
        return known_[name] = isQueueLaunchName(trace_.str(name));
    }
    const Trace& trace_;
    bool us_;
    std::unordered_map<StringId, bool> known_;
};

struct Change {
    TimeNs time;
    int8_t delta; // -1 (an op starts) sorts before +1 (a launch) at equal times
    friend bool operator<(const Change& a, const Change& b) {
        return a.time != b.time ? a.time < b.time : a.delta < b.delta;
    }
};

void fillSeries(std::vector<Change>& changes, int64_t limit, StreamQueue& q) {
    std::sort(changes.begin(), changes.end());
    q.series.reserve(changes.size());
    int64_t length = 0;
    for (const Change& c : changes) {
        length += c.delta;
        q.series.push_back(QueuePoint{c.time, length});
        q.maxLength = std::max(q.maxLength, length);
    }
    for (size_t i = 0; i + 1 < q.series.size(); ++i) {
        const TimeNs held = q.series[i + 1].time - q.series[i].time;
        if (q.series[i].length == q.maxLength) q.timeAtMax += held;
        if (q.series[i].length >= limit) q.timeAtLimit += held;
    }
}

} // namespace

bool isQueueLaunchName(std::string_view name) {
    return std::find(kLaunchNames.begin(), kLaunchNames.end(), name) != kLaunchNames.end();
}

LaunchQueue launchQueue(const Trace& trace, const GpuOpList& list, int64_t limit,
                        bool htaMicroseconds) {
    LaunchQueue out;
    out.limit = limit;
    LaunchFinder finder(trace, htaMicroseconds);
    std::vector<Change> changes;
    const auto flush = [&](int32_t device, int64_t stream) {
        if (changes.empty()) return;
        StreamQueue q;
        q.device = device;
        q.stream = stream;
        q.launches = changes.size() / 2;
        fillSeries(changes, limit, q);
        out.streams.push_back(std::move(q));
        changes.clear();
    };
    const std::vector<GpuOp>& ops = list.ops;
    for (size_t i = 0; i < ops.size(); ++i) {
        const GpuOp& op = ops[i];
        if (i > 0 && (ops[i - 1].device != op.device || ops[i - 1].stream != op.stream))
            flush(ops[i - 1].device, ops[i - 1].stream);
        if (op.stream == -1) continue; // HTA: stream -1 is not a stream
        TimeNs launch = 0;
        if (!finder.find(op.ref, &launch)) {
            ++out.notLaunched;
            continue;
        }
        changes.push_back(Change{launch, +1});
        changes.push_back(Change{op.start, -1});
    }
    if (!ops.empty()) flush(ops.back().device, ops.back().stream);
    return out;
}

} // namespace strata
