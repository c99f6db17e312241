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
    uint32_t op;  // index into the op list
    friend bool operator<(const Change& a, const Change& b) {
        if (a.time != b.time) return a.time < b.time;
        return a.delta != b.delta ? a.delta < b.delta : a.op < b.op;
    }
};

// The changes of each (device, stream) of `ops` in turn, unsorted, handed to `f` with the
// stream's first op; ops with no counted launch are counted in *notLaunched.
template <class F>
void forEachStreamChanges(const Trace& trace, const GpuOpList& list, bool us, uint64_t* notLaunched,
                          F&& f) {
    LaunchFinder finder(trace, us);
    std::vector<Change> changes;
    const std::vector<GpuOp>& ops = list.ops;
    size_t first = 0;
    for (size_t i = 0; i <= ops.size(); ++i) {
        if (i == ops.size() || ops[i].device != ops[first].device ||
            ops[i].stream != ops[first].stream) {
            if (!changes.empty()) f(ops[first], changes);
            changes.clear();
            first = i;
            if (i == ops.size()) break;
        }
        const GpuOp& op = ops[i];
        if (op.stream == -1) continue; // HTA: stream -1 is not a stream
        TimeNs launch = 0;
        if (!finder.find(op.ref, &launch)) {
            ++*notLaunched;
            continue;
        }
        changes.push_back(Change{launch, +1, uint32_t(i)});
        changes.push_back(Change{op.start, -1, uint32_t(i)});
    }
}

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
    forEachStreamChanges(trace, list, htaMicroseconds, &out.notLaunched,
                         [&](const GpuOp& first, std::vector<Change>& changes) {
                             StreamQueue q;
                             q.device = first.device;
                             q.stream = first.stream;
                             q.launches = changes.size() / 2;
                             fillSeries(changes, limit, q);
                             out.streams.push_back(std::move(q));
                         });
    return out;
}

std::vector<OpQueueLength> queueLengthsPerOp(const Trace& trace, const GpuOpList& list,
                                             bool htaMicroseconds) {
    std::vector<OpQueueLength> out(list.ops.size());
    uint64_t notLaunched = 0;
    forEachStreamChanges(trace, list, htaMicroseconds, &notLaunched,
                         [&](const GpuOp&, std::vector<Change>& changes) {
                             // HTA's rows in the order of its concat (launches, then ops) where
                             // its sort by time leaves ties as they were.
                             std::sort(changes.begin(), changes.end(),
                                       [](const Change& a, const Change& b) {
                                           if (a.time != b.time) return a.time < b.time;
                                           if (a.delta != b.delta) return a.delta > b.delta;
                                           return a.op < b.op;
                                       });
                             int64_t length = 0;
                             for (const Change& c : changes) {
                                 length += c.delta;
                                 (c.delta > 0 ? out[c.op].atLaunch : out[c.op].atStart) = length;
                             }
                         });
    return out;
}

} // namespace strata
