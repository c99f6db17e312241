#include "model/build/flow_binder.h"

#include "model/build/trace_builder.h"
#include "util/parallel_for.h"
#include "util/radix_sort.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata {

// A flow event names its thread by (pid, tid); the tracks it may land on are that thread's
// lanes and the GPU stream tracks whose events used the same (pid, tid). Looked up once per
// track as added.
FlowBinder::FlowBinder(Trace& trace, const TrackAliases& aliases,
                       std::vector<std::pair<int64_t, int64_t>> trackKeys)
    : trace_(trace), flows_(trace.flows_) {
    static const std::vector<TrackId> kNone;
    candidates_.reserve(trackKeys.size());
    for (const auto& key : trackKeys) {
        auto it = aliases.find(key);
        candidates_.push_back(it == aliases.end() ? &kNone : &it->second);
    }
}

const std::vector<TrackId>& FlowBinder::candidates(const FlowEventV1& e) const {
    static const std::vector<TrackId> kNone;
    return e.track < candidates_.size() ? *candidates_[e.track] : kNone;
}

namespace {

// std::upper_bound(start, start + n, ts) - start, searched from `hint` outwards (galloping):
// the flows come in id order, which mostly follows time, so each search on a track lands near
// the last one. `hint` becomes the answer.
size_t upperBoundNear(const TimeNs* start, size_t n, TimeNs ts, size_t& hint) {
    size_t lo = 0, hi = n; // the answer lies in [lo, hi]
    const size_t h = std::min(hint, n);
    if (h < n && start[h] <= ts) { // after h: gallop forward
        size_t step = 1;
        lo = h + 1;
        while (lo + step <= n && start[lo + step - 1] <= ts) {
            lo += step;
            step *= 2;
        }
        hi = std::min(n, lo + step - 1);
    } else if (h > 0) { // at or before h: gallop back
        size_t step = 1;
        hi = h;
        while (hi >= step && start[hi - step] > ts) {
            hi -= step;
            step *= 2;
        }
        lo = hi >= step ? hi - step + 1 : 0;
    }
    hint = size_t(std::upper_bound(start + lo, start + hi, ts) - start);
    return hint;
}

} // namespace

// Innermost slice containing ts over the candidate tracks (slices starting exactly at ts count).
SliceRef FlowBinder::enclosing(const FlowEventV1& e, std::vector<size_t>& hints) const {
    SliceRef best;
    TimeNs bestStart = INT64_MIN;
    uint16_t bestDepth = 0;
    for (TrackId t : candidates(e)) {
        const SliceColumns& s = trace_.tracks_[t].slices;
        const size_t at = upperBoundNear(s.start.data(), s.start.size(), e.ts, hints[t]);
        if (at == 0) continue;
        SliceIndex i = static_cast<SliceIndex>(at) - 1;
        // Walk up from the last slice starting at or before ts to the first that contains ts.
        while (i != kNoSlice && !(e.ts < s.start[i] + s.dur[i] || s.start[i] == e.ts))
            i = s.parent[i];
        if (i == kNoSlice) continue;
        if (s.start[i] > bestStart || (s.start[i] == bestStart && s.depth[i] > bestDepth)) {
            best = SliceRef{t, i};
            bestStart = s.start[i];
            bestDepth = s.depth[i];
        }
    }
    return best;
}

SliceRef FlowBinder::nextStarting(const FlowEventV1& e) const {
    SliceRef best;
    TimeNs bestStart = INT64_MAX;
    for (TrackId t : candidates(e)) {
        const SliceColumns& s = trace_.tracks_[t].slices;
        auto it = std::lower_bound(s.start.begin(), s.start.end(), e.ts);
        if (it == s.start.end()) continue;
        const auto i = static_cast<SliceIndex>(it - s.start.begin());
        if (s.start[i] < bestStart) {
            best = SliceRef{t, i};
            bestStart = s.start[i];
        }
    }
    return best;
}

void FlowBinder::bindV1(PodVector<FlowEventV1>& events) {
    using Phase = TraceBuilder::FlowPhase;
    const auto key = [](const FlowEventV1& e) {
        return std::tie(e.id, e.category, e.name, e.ts, e.phase, e.track);
    };
    const auto before = [&](const FlowEventV1& a, const FlowEventV1& b) { return key(a) < key(b); };
    // Flow ids are mostly counters, each used by a handful of events: sort by id, then each
    // id's few events by the rest of the key.
    if (radixSortStable(events.data(), events.size(), [](const FlowEventV1& e) { return e.id; })) {
        for (size_t i = 0, j; i < events.size(); i = j) {
            for (j = i + 1; j < events.size() && events[j].id == events[i].id;) ++j;
            if (j - i > 1) std::sort(events.begin() + i, events.begin() + j, before);
        }
    } else {
        std::sort(events.begin(), events.end(), before);
    }

    // Pair each step/end with its source: the latest unused start (or step) before it in its
    // (id, category, name) group, else the next unused start after it (clock skew).
    std::vector<bool> used(events.size(), false);
    std::vector<std::pair<uint32_t, uint32_t>> pairs; // (source, destination) event indices
    const auto sameGroup = [&](size_t a, size_t b) {
        return std::tie(events[a].id, events[a].category, events[a].name) ==
               std::tie(events[b].id, events[b].category, events[b].name);
    };
    size_t groupStart = 0;
    for (size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (i > 0 && !sameGroup(i, i - 1)) groupStart = i;
        if (used[i] || e.phase == uint8_t(Phase::Start)) continue;
        size_t src = SIZE_MAX;
        for (size_t j = i; j-- > groupStart;) {
            if (!used[j] && events[j].phase != uint8_t(Phase::End)) {
                src = j;
                break;
            }
        }
        if (src == SIZE_MAX) {
            for (size_t j = i + 1; j < events.size() && sameGroup(i, j); ++j) {
                if (!used[j] && events[j].phase == uint8_t(Phase::Start)) {
                    src = j;
                    break;
                }
            }
        }
        if (src == SIZE_MAX) {
            ++unpaired_;
            used[i] = true;
            continue;
        }
        used[src] = true;
        if (e.phase == uint8_t(Phase::End)) used[i] = true;
        pairs.emplace_back(uint32_t(src), uint32_t(i));
    }
    for (size_t i = 0; i < events.size(); ++i)
        if (!used[i] && events[i].phase == uint8_t(Phase::Start)) ++unpaired_;

    // Binding only reads the nested tracks: both cores, in blocks, each flow written at its
    // pair's place; those with an end no slice takes are dropped after, the others kept in order.
    const size_t base = flows_.size();
    flows_.reserve(base + pairs.size());
    flows_.resize(base + pairs.size());
    constexpr size_t kBlock = 4096;
    parallelFor((pairs.size() + kBlock - 1) / kBlock, pairs.size() > 20'000, [&](size_t blk) {
        std::vector<size_t> hints(trace_.tracks_.size(), 0); // where each track was searched last
        const auto bind = [&](const FlowEventV1& e) {
            const bool enclosingBind = e.phase != uint8_t(Phase::End) || e.bindEnclosing;
            return enclosingBind ? enclosing(e, hints) : nextStarting(e);
        };
        const size_t end = std::min(pairs.size(), (blk + 1) * kBlock);
        for (size_t p = blk * kBlock; p < end; ++p) {
            const FlowEventV1& to = events[pairs[p].second];
            flows_[base + p] =
                Flow{bind(events[pairs[p].first]), bind(to), to.category, to.name, to.id};
        }
    });
    const auto kept =
        std::remove_if(flows_.begin() + ptrdiff_t(base), flows_.end(),
                       [](const Flow& f) { return !f.from.valid() || !f.to.valid(); });
    unbound_ += size_t(flows_.end() - kept);
    flows_.erase(kept, flows_.end());
}

void FlowBinder::bindV2(std::vector<FlowEventV2> events, const std::vector<SeqMap>& seqMaps) {
    struct Bound {
        uint64_t id;
        TimeNs start;
        SliceRef ref;
        bool in, out;
    };
    std::vector<Bound> bound;
    bound.reserve(events.size());
    for (const auto& e : events) {
        if (e.track >= seqMaps.size() || e.seq >= seqMaps[e.track].size()) continue;
        const SliceRef r = seqMaps[e.track][e.seq];
        if (!r.valid()) continue;
        bound.push_back(
            Bound{e.bindId, trace_.tracks_[r.track].slices.start[r.index], r, e.flowIn, e.flowOut});
    }
    std::stable_sort(bound.begin(), bound.end(), [](const Bound& a, const Bound& b) {
        return std::tie(a.id, a.start) < std::tie(b.id, b.start);
    });
    for (size_t i = 0; i < bound.size(); ++i) {
        if (!bound[i].in) continue;
        // Source: the latest flow_out slice with the same id starting at or before this one.
        size_t src = SIZE_MAX;
        for (size_t j = i; j-- > 0 && bound[j].id == bound[i].id;) {
            if (bound[j].out) {
                src = j;
                break;
            }
        }
        if (src == SIZE_MAX) {
            ++unpaired_;
            continue;
        }
        flows_.push_back(Flow{bound[src].ref, bound[i].ref, 0, 0, bound[i].id});
    }
}

std::vector<std::string> FlowBinder::takeWarnings() {
    std::vector<std::string> w;
    if (unbound_)
        w.push_back(std::to_string(unbound_) +
                    " flows were skipped: no slice encloses their start or end");
    if (unpaired_)
        w.push_back(std::to_string(unpaired_) +
                    " flow events were skipped: no matching start or end event");
    return w;
}

} // namespace strata
