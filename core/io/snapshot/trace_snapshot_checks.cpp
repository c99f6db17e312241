// TraceSnapshot::validate: every index a model file's arrays hold points inside the model (string
// ids, parents, args, extras, GPU activities, External ids, flows, the id indices, the arg
// arena's entries), so a damaged or hand-made file is refused at load instead of crashing a view.
#include "io/snapshot/trace_snapshot.h"
#include "io/strata/strata_format.h"
#include "model/arg_arena.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace strata {
namespace {

std::string say(const char* f, auto... a) {
    char buf[256];
    std::snprintf(buf, sizeof buf, f, a...);
    return buf;
}

bool refOk(const std::vector<Track>& tracks, SliceRef r) {
    return r.track < tracks.size() && r.index < tracks[r.track].slices.size();
}

std::string checkIndex(const IdIndex& x, const std::vector<Track>& tracks, const char* what) {
    if (x.densePlaces.size() != x.denseCount.size() * x.places ||
        x.listRefs.size() != x.listIds.size())
        return say("the %s index's sizes disagree", what);
    for (size_t i = 0; i < x.denseCount.size(); ++i) {
        const uint8_t n = x.denseCount[i];
        if (n == IdIndex::kListed) continue;
        if (n > x.places) return say("the %s index holds %u places for an id", what, unsigned(n));
        for (uint8_t k = 0; k < n; ++k)
            if (!refOk(tracks, x.densePlaces[i * x.places + k]))
                return say("the %s index names a slice the model does not have", what);
    }
    for (size_t i = 0; i < x.listRefs.size(); ++i)
        if (!refOk(tracks, x.listRefs[i]) || (i && x.listIds[i] < x.listIds[i - 1]))
            return say("the %s index's list is damaged", what);
    return {};
}

} // namespace

std::string TraceSnapshot::validate(const Trace& t, unsigned threads) {
    const size_t strings = t.strings_.size(), sets = t.args_.setCount();
    const auto str = [&](StringId id) { return id < strings; };
    const auto args = [&](ArgSetId a) { return a == kNoArgs || a < sets; };
    const PodVector<uint64_t>& offsets = t.args_.offsets_;
    if (offsets.size() == 0 || offsets[0] != 0 ||
        offsets[offsets.size() - 1] != t.args_.bytes_.size())
        return "the arg offsets do not span the arg bytes";
    // The tracks and the arg arena (in pieces) checked on `threads` threads; the first problem
    // in item order is the one reported.
    constexpr size_t kArgPieces = 16;
    const size_t items = t.tracks_.size() + kArgPieces;
    std::vector<std::string> found(items);
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < items;) {
            if (k >= t.tracks_.size()) {
                const size_t piece = k - t.tracks_.size();
                found[k] =
                    checkArgArena(t.args_.bytes_, offsets, strings, sets * piece / kArgPieces,
                                  sets * (piece + 1) / kArgPieces);
                continue;
            }
            const Track& tr = t.tracks_[k];
            const SliceColumns& s = tr.slices;
            if (!str(tr.name)) {
                found[k] = say("track %zu: a name that is no string", k);
                continue;
            }
            for (size_t i = 0; i < s.size() && found[k].empty(); ++i) {
                const bool ok = str(s.name[i]) && str(s.category[i]) && args(s.args[i]) &&
                                (s.parent[i] == kNoSlice || s.parent[i] < i) &&
                                (s.extra[i] == kNoExtra || s.extra[i] < t.extras_.size()) &&
                                uint8_t(s.kind[i]) <= format::kMaxSliceKind &&
                                s.depth[i] < tr.maxDepth;
                if (!ok) found[k] = say("track %zu, slice %zu: an index out of range", k, i);
            }
            const InstantColumns& in = tr.instants;
            for (size_t i = 0; i < in.size() && found[k].empty(); ++i)
                if (!str(in.name[i]) || !str(in.category[i]) || !args(in.args[i]))
                    found[k] = say("track %zu, instant %zu: an index out of range", k, i);
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < std::max(threads, 1u); ++i) pool.emplace_back(work);
        work();
    }
    for (const std::string& bad : found)
        if (!bad.empty()) return bad;
    for (size_t i = 0; i < t.extras_.size(); ++i) {
        const SliceExtra& e = t.extras_[i];
        if ((e.gpu != SliceExtra::kNone && e.gpu >= t.gpu_.size()) ||
            (e.external != SliceExtra::kNone && e.external >= t.externalIds_.size()))
            return say("extra %zu: an index out of range", i);
    }
    for (size_t i = 0; i < t.flows_.size(); ++i) {
        const Flow& f = t.flows_[i];
        if (!refOk(t.tracks_, f.from) || !refOk(t.tracks_, f.to) || !str(f.category) ||
            !str(f.name) || t.flowsByFrom_[i] >= t.flows_.size() ||
            t.flowsByTo_[i] >= t.flows_.size())
            return say("flow %zu: an index out of range", i);
    }
    for (const Process& p : t.processes_) {
        if (!str(p.name)) return say("process %" PRId64 ": a name that is no string", p.pid);
        for (StringId l : p.labels)
            if (!str(l)) return say("process %" PRId64 ": a label that is no string", p.pid);
    }
    for (const Thread& h : t.threads_)
        if (!str(h.name)) return say("thread %" PRId64 ": a name that is no string", h.tid);
    for (const auto& [name, argb] : t.nameColors_)
        if (!str(name)) return "a slice colour for a name that is no string";
    if (std::string bad = checkIndex(t.correlationIndex_, t.tracks_, "correlation"); !bad.empty())
        return bad;
    return checkIndex(t.externalIndex_, t.tracks_, "External id");
}

} // namespace strata
