#include "analysis/critical_path/cp_events.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

namespace strata::cp {

namespace {

constexpr std::array<std::string_view, 3> kLockNames = {"cudaHostAlloc", "cudaLaunchKernel",
                                                        "cudaMemcpyAsync"};
constexpr std::array<std::string_view, 6> kBlockingNames = {"cudaDeviceSynchronize",
                                                            "cudaStreamSynchronize",
                                                            "cudaEventQuery",
                                                            "cudaEventSynchronize",
                                                            "cudaMemcpy",
                                                            "cudaMemcpyAsync"};

template <size_t N> bool listed(const std::array<std::string_view, N>& names, std::string_view s) {
    return std::find(names.begin(), names.end(), s) != names.end();
}

SyncKind syncKindOf(std::string_view name) {
    if (name == "Stream Sync") return SyncKind::Stream;
    if (name == "Context Sync") return SyncKind::Context;
    if (name == "Event Sync") return SyncKind::Event;
    if (name == "Stream Wait Event") return SyncKind::StreamWait;
    return SyncKind::None;
}

// An integer arg of a slice (kept as Kineto wrote it), or `fallback`.
class ArgReader {
public:
    explicit ArgReader(const Trace& trace) : trace_(trace) {}
    int64_t get(SliceRef r, std::string_view key, int64_t fallback) const {
        const StringId k = trace_.strings().find(key);
        ArgValue v;
        const ArgSetId set = trace_.track(r.track).slices.args[r.index];
        if (k == StringPool::kNotFound || set == kNoArgs || !trace_.argStore().find(set, k, &v))
            return fallback;
        if (v.type == ArgValue::Type::Int) return v.i;
        if (v.type == ArgValue::Type::UInt) return int64_t(v.u);
        if (v.type == ArgValue::Type::Double) return int64_t(v.d);
        return fallback;
    }

private:
    const Trace& trace_;
};

struct Context {
    const Trace& trace;
    const CriticalPathOptions& options;
    bool us = false;
    TimeNs cutoff = std::numeric_limits<TimeNs>::max(); // HTA's steps: CPU events before it
};

bool isDataLoading(const Context& c, std::string_view name) {
    for (const std::string& p : c.options.dataLoading)
        if (!p.empty() && name.find(p) != std::string_view::npos) return true;
    return false;
}

void addCpuEvents(const Context& c, std::vector<Event>& out) {
    for (TrackId t = 0; t < c.trace.tracks().size(); ++t) {
        const Track& track = c.trace.track(t);
        if (track.kind != TrackKind::Thread) continue;
        const SliceColumns& s = track.slices;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            if (isGpuKind(s.kind[i])) continue;
            Event e;
            e.start = htaStart(s.start[i], c.us);
            e.end = htaEnd(s.start[i], s.end(i), c.us);
            if (e.start < c.options.window.start || e.start > c.options.window.end ||
                e.end <= e.start || e.start >= c.cutoff)
                continue;
            e.ref = SliceRef{t, i};
            e.name = s.name[i];
            e.pid = track.pid;
            e.tid = track.tid;
            e.flags = kCpu;
            const SliceKind k = s.kind[i];
            const std::string_view name = c.trace.str(e.name);
            if (k == SliceKind::CpuOp || isLaunchApiKind(k)) e.flags |= kNodes;
            if (isDataLoading(c, name)) e.flags |= kNodes | kDataLoading;
            if (listed(kLockNames, name)) e.flags |= kLock;
            if (listed(kBlockingNames, name)) e.flags |= kBlocking;
            out.push_back(e);
        }
    }
}

// GPU ops whose call is a CPU event of the window (HTA: the runtime call starts in the window
// and lasts > 0), with the queue lengths they saw.
// `calls`: each op's CPU call (Trace::launchOf), looked up once for this and collectLaunches.
void addGpuOps(const Context& c, const GpuOpList& ops, const std::vector<SliceRef>& calls,
               const std::vector<OpQueueLength>& queue, const std::unordered_set<uint64_t>& cpu,
               std::vector<Event>& out) {
    for (size_t i = 0; i < ops.ops.size(); ++i) {
        const GpuOp& op = ops.ops[i];
        const SliceRef call = calls[i];
        if (op.stream == -1 || !call.valid() || !cpu.count(Events::sliceKey(call))) continue;
        Event e;
        e.ref = op.ref;
        e.start = op.start;
        e.end = op.end;
        e.name = c.trace.track(op.ref.track).slices.name[op.ref.index];
        e.device = op.device;
        e.stream = op.stream;
        e.callRef = call;
        e.queue = queue[i];
        e.flags = kGpuOp | kNodes;
        out.push_back(e);
    }
}

// cuda_sync events, and the stream each recorded CUDA event lies on.
void addSyncs(const Context& c, const std::unordered_set<uint64_t>& cpu, Events& ev) {
    const ArgReader args(c.trace);
    for (TrackId t = 0; t < c.trace.tracks().size(); ++t) {
        const Track& track = c.trace.track(t);
        const SliceColumns& s = track.slices;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            if (s.kind[i] != SliceKind::Synchronization) continue;
            const SyncKind kind = syncKindOf(c.trace.str(s.name[i]));
            const SliceRef ref{t, i};
            const SliceRef call = c.trace.launchOf(ref);
            if (kind == SyncKind::None || !call.valid()) continue;
            if (htaStart(c.trace.start(call), c.us) >= c.cutoff) continue; // HTA's steps
            const GpuActivity* gpu = c.trace.gpu(ref);
            const int32_t device =
                int32_t(args.get(ref, "device", gpu ? gpu->device : track.device));
            const int64_t waitStream = args.get(ref, "wait_on_stream", -1);
            const int64_t record = args.get(ref, "wait_on_cuda_event_record_corr_id", -1);
            if (waitStream > -1) ev.recordStream[record] = {device, waitStream};
            Event e;
            e.ref = ref;
            e.start = htaStart(s.start[i], c.us);
            e.end = htaEnd(s.start[i], s.end(i), c.us);
            e.stream = args.get(ref, "stream", gpu ? gpu->stream : track.tid);
            // HTA's clip: syncs on stream -1 are CPU-side events there (their own start in the
            // window, > 0 long); the others go with their call; a Stream Wait Event always.
            if (e.stream == -1) {
                if (e.start < c.options.window.start || e.start > c.options.window.end ||
                    e.end <= e.start)
                    continue;
            } else if (kind != SyncKind::StreamWait && !cpu.count(Events::sliceKey(call))) {
                continue;
            }
            e.name = s.name[i];
            e.device = device;
            e.callRef = call;
            e.sync = kind;
            e.waitRecord = record;
            ev.events.push_back(e);
        }
    }
}

void collectLaunches(const Context& c, const GpuOpList& ops, const std::vector<SliceRef>& calls,
                     Events& ev) {
    for (size_t i = 0; i < ops.ops.size(); ++i) {
        const GpuOp& op = ops.ops[i];
        const SliceRef call = calls[i];
        if (op.stream == -1 || !call.valid() || !isQueueLaunchName(c.trace.name(call))) continue;
        const Track& track = c.trace.track(call.track);
        ev.launches.push_back(Launch{htaStart(c.trace.start(call), c.us), call, op.ref, op.device,
                                     op.stream, track.pid, track.tid});
    }
    std::sort(ev.launches.begin(), ev.launches.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.ts, a.call) < std::tie(b.ts, b.call);
    });
}

// HTA's _get_tid_for_event: the one thread whose cpu_op or user_annotation slices of the
// window have `part` in their name (none if not exactly one).
std::optional<int64_t> threadOf(const Trace& trace, const std::vector<Event>& events,
                                std::string_view part) {
    std::set<int64_t> tids;
    for (const Event& e : events) {
        if (!(e.flags & kCpu)) continue;
        const SliceKind k = trace.kind(e.ref);
        if (k != SliceKind::CpuOp && k != SliceKind::UserAnnotation) continue;
        if (trace.str(e.name).find(part) != std::string_view::npos) tids.insert(e.tid);
    }
    if (tids.size() != 1) return std::nullopt;
    return *tids.begin();
}

void mergeBackwardThread(const Trace& trace, std::vector<Event>& events) {
    const auto fwd = threadOf(trace, events, "forward");
    const auto bwd = threadOf(trace, events, "autograd");
    if (!fwd || !bwd || *fwd == *bwd) return;
    for (Event& e : events)
        if ((e.flags & kCpu) && e.tid == *bwd) e.tid = *fwd;
}

} // namespace

Events collectEvents(const Trace& trace, const CriticalPathOptions& options) {
    Context c{trace, options, options.hta.microseconds};
    GpuOpList ops = collectGpuOps(trace);
    const HtaApplied applied = applyHtaConventions(trace, ops, options.hta);
    if (applied.stepsApplied) c.cutoff = applied.lastStepStart;
    const std::vector<OpQueueLength> queue = queueLengthsPerOp(trace, ops, c.us);

    Events ev;
    ev.microseconds = c.us;
    addCpuEvents(c, ev.events);
    std::unordered_set<uint64_t> cpu;
    for (const Event& e : ev.events) cpu.insert(Events::sliceKey(e.ref));
    std::vector<SliceRef> calls(ops.ops.size());
    for (size_t i = 0; i < ops.ops.size(); ++i) calls[i] = trace.launchOf(ops.ops[i].ref);
    addGpuOps(c, ops, calls, queue, cpu, ev.events);
    addSyncs(c, cpu, ev);
    collectLaunches(c, ops, calls, ev);

    std::sort(ev.events.begin(), ev.events.end(), [](const Event& a, const Event& b) {
        const TimeNs da = a.end - a.start, db = b.end - b.start;
        return std::tie(a.start, db, a.ref) < std::tie(b.start, da, b.ref);
    });
    ev.bySlice.reserve(ev.events.size());
    for (uint32_t i = 0; i < ev.events.size(); ++i)
        ev.bySlice[Events::sliceKey(ev.events[i].ref)] = i;
    for (Event& e : ev.events)
        if (e.callRef.valid()) e.call = ev.of(e.callRef);
    mergeBackwardThread(trace, ev.events);
    return ev;
}

} // namespace strata::cp
