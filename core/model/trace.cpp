#include "model/trace.h"

#include <algorithm>

namespace strata {

const Process* Trace::process(int64_t pid) const {
    auto it = std::lower_bound(processes_.begin(), processes_.end(), pid,
                               [](const Process& p, int64_t v) { return p.pid < v; });
    return it != processes_.end() && it->pid == pid ? &*it : nullptr;
}

const Thread* Trace::thread(int64_t pid, int64_t tid) const {
    auto it = std::lower_bound(threads_.begin(), threads_.end(), std::pair{pid, tid},
                               [](const Thread& t, std::pair<int64_t, int64_t> v) {
                                   return std::pair{t.pid, t.tid} < v;
                               });
    return it != threads_.end() && it->pid == pid && it->tid == tid ? &*it : nullptr;
}

const SliceExtra* Trace::extra(SliceRef r) const {
    if (!r.valid()) return nullptr;
    const uint32_t e = tracks_[r.track].slices.extra[r.index];
    return e == kNoExtra ? nullptr : &extras_[e];
}

const GpuActivity* Trace::gpu(SliceRef r) const {
    const SliceExtra* e = extra(r);
    return e && e->gpu != SliceExtra::kNone ? &gpu_[e->gpu] : nullptr;
}

int64_t Trace::externalId(SliceRef r) const {
    const SliceExtra* e = extra(r);
    return e && e->external != SliceExtra::kNone ? externalIds_[e->external] : -1;
}

SliceRef Trace::launchOf(SliceRef gpuOp) const {
    const SliceExtra* e = extra(gpuOp);
    if (!e || e->correlation < 0) return {};
    for (SliceRef ref : byCorrelation(e->correlation)) {
        if (isLaunchApiKind(kind(ref))) return ref;
    }
    // Fall back to any CPU-side slice carrying the same correlation id.
    for (SliceRef ref : byCorrelation(e->correlation)) {
        if (tracks_[ref.track].kind == TrackKind::Thread) return ref;
    }
    return {};
}

std::vector<SliceRef> Trace::gpuOpsOf(SliceRef launch) const {
    std::vector<SliceRef> out;
    const SliceExtra* e = extra(launch);
    if (!e || e->correlation < 0) return out;
    for (SliceRef ref : byCorrelation(e->correlation)) {
        if (tracks_[ref.track].kind == TrackKind::GpuStream) out.push_back(ref);
    }
    return out;
}

std::vector<const SectionSet*> Trace::sectionsOf(int64_t correlation) const {
    std::vector<const SectionSet*> out;
    auto it = std::lower_bound(sections_.begin(), sections_.end(), correlation,
                               [](const SectionSet& s, int64_t c) { return s.correlation < c; });
    for (; it != sections_.end() && it->correlation == correlation; ++it) out.push_back(&*it);
    return out;
}

std::shared_ptr<const Trace> Trace::withSectionsOf(const Trace& other) const {
    auto t = std::make_shared<Trace>(*this);
    t->sections_.insert(t->sections_.end(), other.sections_.begin(), other.sections_.end());
    std::stable_sort(
        t->sections_.begin(), t->sections_.end(),
        [](const SectionSet& a, const SectionSet& b) { return a.correlation < b.correlation; });
    t->warnings_.insert(t->warnings_.end(), other.warnings_.begin(), other.warnings_.end());
    return t;
}

std::shared_ptr<const Trace> Trace::withGpuTimeShifted(TimeNs shift) const {
    auto t = std::make_shared<Trace>(*this);
    if (shift == 0) return t;
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (Track& tr : t->tracks_) {
        SliceColumns& c = tr.slices;
        if (tr.kind == TrackKind::GpuStream)
            for (TimeNs& s : c.start) s += shift;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            lo = std::min(lo, c.start[i]);
            hi = std::max(hi, c.end(i));
        }
        for (TimeNs ts : tr.counter.ts) lo = std::min(lo, ts), hi = std::max(hi, ts);
        for (TimeNs ts : tr.instants.ts) lo = std::min(lo, ts), hi = std::max(hi, ts);
    }
    if (lo <= hi) t->bounds_ = {lo, hi};
    return t;
}

std::vector<SliceRef> Trace::ancestors(SliceRef r) const {
    std::vector<SliceRef> chain;
    if (!r.valid()) return chain;
    const auto& s = tracks_[r.track].slices;
    for (SliceIndex p = s.parent[r.index]; p != kNoSlice; p = s.parent[p])
        chain.push_back(SliceRef{r.track, p});
    std::reverse(chain.begin(), chain.end());
    return chain;
}

namespace {
// The flow indices in `sorted` (ordered by endpoint) whose endpoint is r.
std::span<const uint32_t> flowsAt(const std::vector<Flow>& flows,
                                  const std::vector<uint32_t>& sorted, SliceRef r,
                                  SliceRef Flow::*end) {
    const auto lo = std::lower_bound(sorted.begin(), sorted.end(), r,
                                     [&](uint32_t f, SliceRef v) { return flows[f].*end < v; });
    auto hi = lo;
    while (hi != sorted.end() && flows[*hi].*end == r) ++hi;
    return {sorted.data() + (lo - sorted.begin()), size_t(hi - lo)};
}
} // namespace

std::span<const uint32_t> Trace::flowsFrom(SliceRef r) const {
    return flowsAt(flows_, flowsByFrom_, r, &Flow::from);
}

std::span<const uint32_t> Trace::flowsTo(SliceRef r) const {
    return flowsAt(flows_, flowsByTo_, r, &Flow::to);
}

TimeRange Trace::contentBounds() const {
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (const Track& t : tracks_) {
        if (t.kind == TrackKind::GlobalInstants) continue;
        const SliceColumns& c = t.slices;
        if (c.size()) {
            lo = std::min(lo, c.start[0]); // sorted by start
            // The latest end is that of a slice starting within maxDuration of the last start.
            const TimeNs from = c.start[c.size() - 1] - t.maxDuration;
            for (size_t i = size_t(std::lower_bound(c.start.begin(), c.start.end(), from) -
                                   c.start.begin());
                 i < c.size(); ++i)
                hi = std::max(hi, c.end(SliceIndex(i)));
        }
        for (const auto* ts : {&t.counter.ts, &t.instants.ts})
            if (ts->size()) {
                lo = std::min(lo, (*ts)[0]); // in time order
                hi = std::max(hi, (*ts)[ts->size() - 1]);
            }
    }
    if (lo > hi) return bounds_;
    return {lo, std::max(hi, lo + 1)};
}

size_t Trace::memoryBytes() const {
    size_t bytes = strings_.memoryBytes() + args_.memoryBytes() + stackSamples_.memoryBytes();
    for (const auto& t : tracks_) {
        bytes += sizeof(Track) + t.slices.memoryBytes();
        bytes +=
            t.counter.ts.capacity() * sizeof(TimeNs) + t.counter.value.capacity() * sizeof(double);
        bytes +=
            t.instants.ts.capacity() * (sizeof(TimeNs) + 2 * sizeof(StringId) + sizeof(ArgSetId));
    }
    bytes += extras_.capacity() * sizeof(SliceExtra) + gpu_.capacity() * sizeof(GpuActivity) +
             externalIds_.capacity() * sizeof(int64_t);
    bytes += flows_.capacity() * sizeof(Flow) +
             (flowsByFrom_.capacity() + flowsByTo_.capacity()) * sizeof(uint32_t);
    bytes += correlationIndex_.memoryBytes() + externalIndex_.memoryBytes();
    return bytes;
}

} // namespace strata
