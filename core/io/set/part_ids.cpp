#include "io/set/part_ids.h"

#include <algorithm>
#include <climits>
#include <set>

namespace strata {
namespace {

bool goodId(int64_t v) {
    return v >= 1 && v <= INT32_MAX;
}

// A sort index from 64-bit arithmetic, clamped into int32 (a device id or a thread's sort index
// near the limits must not overflow: what is out of range sorts at the end it is nearest).
int32_t sortIndex(int64_t v) {
    return int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}

} // namespace

int32_t setPartSortBase(size_t i) {
    return int32_t(std::min<size_t>(i, 1000) * 2'000'000);
}

int64_t PartIds::freshPid() {
    while (usedPid_.count(nextPid_)) ++nextPid_;
    usedPid_[nextPid_] = 1;
    return nextPid_++;
}

int64_t PartIds::freshTid() {
    while (usedTid_.count(nextTid_)) ++nextTid_;
    usedTid_[nextTid_] = 1;
    return nextTid_++;
}

int32_t PartIds::device(int32_t original) const {
    const auto it = deviceOf_.find(original);
    return it == deviceOf_.end() ? original : it->second;
}

int64_t PartIds::processFor(int64_t original) {
    if (auto it = pidOf_.find(original); it != pidOf_.end()) return it->second;
    const int64_t p = goodId(original) && !usedPid_.count(original) ? original : freshPid();
    usedPid_[p] = 1;
    pidOf_[original] = p;
    return p;
}

PartIds::PartIds(const Trace& t)
    : trace_(t), usedPid_(own_.usedPid), usedTid_(own_.usedTid), usedDevice_(own_.usedDevice),
      nextPid_(own_.nextPid), nextTid_(own_.nextTid) {
    assign(PartIdSpace{}, std::string(), 0);
}

PartIds::PartIds(const Trace& t, PartIdSpace& space, const std::string& label, int32_t sortBase)
    : trace_(t), usedPid_(space.usedPid), usedTid_(space.usedTid), usedDevice_(space.usedDevice),
      nextPid_(space.nextPid), nextTid_(space.nextTid) {
    const PartIdSpace before = space;
    assign(before, label, sortBase);
    // Past the ids of the traces before this one (those near the int64 limit are kept).
    int64_t maxCorrelation = -1, maxExternal = -1;
    for (size_t i = 0; i < t.extras().size(); ++i)
        maxCorrelation = std::max(maxCorrelation, t.extras()[i].correlation);
    for (size_t i = 0; i < t.externalIds().size(); ++i)
        maxExternal = std::max(maxExternal, t.externalIds()[i]);
    constexpr int64_t kRoom = int64_t(1) << 62;
    if (maxCorrelation < kRoom && space.nextCorrelation < kRoom) {
        correlationBase_ = space.nextCorrelation;
        space.nextCorrelation += maxCorrelation + 1;
    }
    if (maxExternal < kRoom && space.nextExternal < kRoom) {
        externalBase_ = space.nextExternal;
        space.nextExternal += maxExternal + 1;
    }
}

// `before`: the ids of the traces written before this one (none for a file of one trace), which
// this one's processes and threads cannot keep.
void PartIds::assign(const PartIdSpace& before, const std::string& label, int32_t sortBase) {
    const Trace& t = trace_;
    const auto& tracks = t.tracks();
    pid_.assign(tracks.size(), 0);
    tid_.assign(tracks.size(), 0);
    // CPU processes first, keeping their ids where they are good (reserved before fresh ones
    // are handed out, so a fresh id never takes one a later process needs).
    for (const Process& p : t.processes())
        if (goodId(p.pid)) usedPid_[p.pid] = 1;
    for (const Track& tr : tracks)
        if (tr.kind == TrackKind::Thread && tr.lane == 0 && goodId(tr.tid)) usedTid_[tr.tid] = 0;
    for (const SampleThread& th : t.stackSamples().threads)
        if (goodId(th.tid)) usedTid_[th.tid] = 0;
    pidOf_.clear();
    // Processes with something on the CPU side (a GPU-only "process", as Kineto names the
    // device's pid, becomes the GPU process below).
    std::set<int64_t> cpuPids;
    for (const Track& tr : tracks)
        if (tr.kind != TrackKind::GpuStream && tr.kind != TrackKind::GlobalInstants)
            cpuPids.insert(tr.pid);
    for (const SampleThread& th : t.stackSamples().threads) cpuPids.insert(th.pid);
    for (int64_t p : cpuPids) {
        // A good pid keeps itself even though it is in usedPid_ already (but not one an earlier
        // trace of the file took).
        const int64_t mapped = goodId(p) && !before.usedPid.count(p) ? p : freshPid();
        usedPid_[mapped] = 1;
        pidOf_[p] = mapped;
    }
    tidOf_.clear();
    tidOwner_.clear();
    nameCpuProcesses(cpuPids, label, sortBase);
    assignGpuProcesses(label, sortBase);
    assignTracks(before);
    assignSampleThreads(before);
}

// The CPU processes' export entries: in their order (their own sort index, else pid), named,
// a made-up name marked.
void PartIds::nameCpuProcesses(const std::set<int64_t>& cpuPids, const std::string& label,
                               int32_t sortBase) {
    const Trace& t = trace_;
    std::vector<int64_t> order(cpuPids.begin(), cpuPids.end());
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const Process* pa = t.process(a);
        const Process* pb = t.process(b);
        const int64_t ka = pa && pa->hasSortIndex ? pa->sortIndex : 0;
        const int64_t kb = pb && pb->hasSortIndex ? pb->sortIndex : 0;
        return ka < kb;
    });
    int32_t sort = 0;
    for (int64_t p : order) {
        ExportProcess e;
        e.pid = pidOf_[p];
        const Process* proc = t.process(p);
        const int64_t shown = proc ? proc->shownPid() : p;
        if (e.pid != shown) e.original = shown;
        e.name = proc && proc->name ? std::string(t.str(proc->name)) : std::string();
        // A made-up name is marked (strata_unnamed) so a re-import drops it; under a set's
        // label (several traces in one file) the label is information, so it is kept.
        e.unnamed = e.name.empty() && label.empty();
        if (e.name.empty()) e.name = "Process " + std::to_string(shown);
        e.name = label + e.name;
        e.sortIndex = sortIndex(int64_t(sortBase) + sort++);
        processes_.push_back(e);
    }
}

// A process per GPU device, after the CPU processes.
void PartIds::assignGpuProcesses(const std::string& label, int32_t sortBase) {
    const Trace& t = trace_;
    const auto& tracks = t.tracks();
    std::set<int32_t> devices;
    for (const Track& tr : tracks)
        if (tr.kind == TrackKind::GpuStream) devices.insert(tr.device);
    for (int32_t d : devices) {
        ExportProcess e;
        e.pid = goodId(int64_t(d) + 1'000'000'000) && !usedPid_.count(int64_t(d) + 1'000'000'000)
                    ? int64_t(d) + 1'000'000'000
                    : freshPid();
        usedPid_[e.pid] = 1;
        gpuPid_[d] = e.pid;
        int32_t id = d;
        if (usedDevice_.count(id)) id = *usedDevice_.rbegin() + 1; // a trace before took it
        usedDevice_.insert(id);
        deviceOf_[d] = id;
        e.name = label + "GPU " + std::to_string(d);
        for (const DeviceInfo& info : t.devices())
            if (info.id == d) e.label = info.name;
        e.sortIndex = sortIndex(int64_t(sortBase) + 1'000'000 + int64_t(d));
        processes_.push_back(e);
    }
}

// Each track's exported (pid, tid): a thread's own where it can keep it.
void PartIds::assignTracks(const PartIdSpace& before) {
    const Trace& t = trace_;
    const auto& tracks = t.tracks();
    auto threadTid = [&](int64_t pid, int64_t tid) { return this->threadTid(before, pid, tid); };
    for (TrackId i = 0; i < tracks.size(); ++i) {
        const Track& tr = tracks[i];
        switch (tr.kind) {
        case TrackKind::Thread: {
            pid_[i] = pidOf_[tr.pid];
            ExportThread e = threadEntry(tr.pid, tr.tid, threadTid(tr.pid, tr.tid), tr.lane);
            tid_[i] = e.tid;
            threads_.push_back(std::move(e));
            break;
        }
        case TrackKind::GpuStream: {
            pid_[i] = gpuPid_[tr.device];
            std::string name = "stream " + std::to_string(tr.tid);
            if (tr.lane == 0 && goodId(tr.tid) && !usedTid_.count(tr.tid)) {
                tid_[i] = tr.tid;
                usedTid_[tr.tid] = 1;
            } else {
                tid_[i] = freshTid();
            }
            if (tr.lane > 0) {
                ++overlapThreads_;
                name += " (overlapping, lane " + std::to_string(tr.lane) + ")";
            }
            const int32_t s = int32_t(std::clamp<int64_t>(tr.tid, 0, 1 << 20)) * 64 +
                              int32_t(std::min<uint32_t>(tr.lane, 63));
            threads_.push_back({pid_[i], tid_[i], name, s, std::nullopt, false});
            break;
        }
        case TrackKind::GlobalInstants:
            pid_[i] = processes_.empty() ? freshPid() : processes_.front().pid;
            break;
        default:
            pid_[i] = pidOf_[tr.pid];
            break;
        }
    }
}

int64_t PartIds::threadTid(const PartIdSpace& before, int64_t pid, int64_t tid) {
    // (pid, tid) keep the tid when it is good and no other process's thread took it.
    const auto key = std::make_pair(pid, tid);
    if (auto it = tidOf_.find(key); it != tidOf_.end()) return it->second;
    int64_t mapped;
    if (goodId(tid) && !tidOwner_.count(tid) && !before.usedTid.count(tid)) {
        mapped = tid;
        usedTid_[tid] = 1;
    } else {
        mapped = freshTid();
    }
    tidOwner_[mapped] = pid;
    tidOf_[key] = mapped;
    return mapped;
}

ExportThread PartIds::threadEntry(int64_t pid, int64_t tid, int64_t exportedTid, uint32_t lane) {
    const Thread* th = trace_.thread(pid, tid);
    const int64_t shown = th ? th->shownTid() : tid;
    std::string name = th && th->name ? std::string(trace_.str(th->name)) : std::string();
    const bool unnamed = name.empty();
    if (unnamed) name = "Thread " + std::to_string(shown);
    const int64_t s = th && th->hasSortIndex ? int64_t(th->sortIndex) * 64 : 0;
    ExportThread e{pidOf_[pid], exportedTid, name, sortIndex(s), std::nullopt, unnamed};
    if (lane > 0) {
        e.tid = freshTid();
        ++overlapThreads_;
        e.name += " (overlapping, lane " + std::to_string(lane) + ")";
        e.sortIndex = sortIndex(s + std::min<uint32_t>(lane, 63));
    }
    // An extra lane is a thread of its own in the file; it shows its thread's id.
    if (e.tid != shown) e.original = shown;
    return e;
}

void PartIds::assignSampleThreads(const PartIdSpace& before) {
    // Threads with stack samples and no slices (a recording of native or Python stacks alone):
    // exported ids and names of their own, as their thread tracks would have.
    const Trace& t = trace_;
    std::set<std::pair<int64_t, int64_t>> tracked;
    for (const Track& tr : t.tracks())
        if (tr.kind == TrackKind::Thread && tr.lane == 0) tracked.insert({tr.pid, tr.tid});
    for (const SampleThread& th : t.stackSamples().threads) {
        if (tracked.count({th.pid, th.tid})) continue;
        ExportThread e = threadEntry(th.pid, th.tid, threadTid(before, th.pid, th.tid), 0);
        sampleThreads_[{th.pid, th.tid}] = {e.pid, e.tid};
        threads_.push_back(std::move(e));
    }
}

std::pair<int64_t, int64_t> PartIds::sampleThread(int64_t pid, int64_t tid) const {
    const auto it = sampleThreads_.find({pid, tid});
    return it != sampleThreads_.end() ? it->second : std::pair{pid, tid};
}

} // namespace strata
