// TraceSnapshot::validate: a model read from a file checked against the invariants of one that
// TraceBuilder::build() made (io/snapshot/snapshot_checks.h): every index points inside the model
// and every value is one the builder could have made, so a damaged or hand-made file is refused
// at load instead of crashing a view or showing garbage. The tracks, the arg arena, the id
// indices and the flows' orders are checked on `threads` threads; the first problem in item
// order is the one reported.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_checks.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "model/arg_arena.h"

#include <atomic>
#include <cinttypes>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace strata {
namespace {

using namespace snapshot;

bool refOk(const std::vector<Track>& tracks, SliceRef r) {
    return r.track < tracks.size() && r.index < tracks[r.track].slices.size();
}

// One of the flows' two orders: flow indices sorted by one end, then by index (a stable sort of
// 0, 1, ...), which makes it a permutation; the flows' ends checked already.
Problem checkFlowOrder(const std::vector<Flow>& flows, const std::vector<uint32_t>& order,
                       SliceRef Flow::*end, uint16_t array) {
    for (size_t i = 0; i < order.size(); ++i) {
        const uint32_t f = order[i];
        if (f >= flows.size())
            return problemAt(array, 0, i, "flow order entry %zu: flow %u of %zu", i, unsigned(f),
                             flows.size());
        if (i == 0) continue;
        const uint32_t g = order[i - 1];
        if (g < flows.size() && !(std::pair{flows[g].*end, g} < std::pair{flows[f].*end, f}))
            return problemAt(array, 0, i,
                             "flow order entry %zu: flow %u after flow %u (the order is by the "
                             "flows' slices, then their index, each flow once)",
                             i, unsigned(f), unsigned(g));
    }
    return {};
}

// In-kernel sections: the sets by correlation id (Trace::sectionsOf searches them), a device's
// samples as finishSectionSet leaves them (by block, warp, section and start, iterations
// counted).
Problem checkSections(const std::vector<SectionSet>& sets) {
    for (uint32_t k = 0; k < sets.size(); ++k) {
        if (k && sets[k].correlation < sets[k - 1].correlation)
            return problemAt(0, 0, 0, "section set %u: out of correlation order", unsigned(k));
        if (!sets[k].hasTimes) continue;
        const std::vector<SectionSample>& v = sets[k].samples;
        for (size_t i = 1; i < v.size(); ++i) {
            const SectionSample &a = v[i - 1], &b = v[i];
            const auto key = [](const SectionSample& s) {
                return std::tuple{s.block, s.warp, s.section, s.startNs};
            };
            const bool same =
                std::tuple{a.block, a.warp, a.section} == std::tuple{b.block, b.warp, b.section};
            if (key(b) < key(a) || b.iteration != (same ? a.iteration + 1 : 0))
                return problemAt(SectionSamples, k, i,
                                 "section set %u, sample %zu: out of order or miscounted",
                                 unsigned(k), i);
        }
        if (!v.empty() && v[0].iteration != 0)
            return problemAt(SectionSamples, k, 0, "section set %u, sample 0: miscounted",
                             unsigned(k));
    }
    return {};
}

// The small lists: processes and threads sorted (their lookups search them), names in range.
Problem checkLists(const Trace& t) {
    const size_t strings = t.strings().size();
    const auto& processes = t.processes();
    for (size_t i = 0; i < processes.size(); ++i) {
        const Process& p = processes[i];
        if (i && p.pid < processes[i - 1].pid)
            return problemAt(0, 0, 0, "process %" PRId64 ": out of pid order", p.pid);
        if (p.name >= strings)
            return problemAt(0, 0, 0, "process %" PRId64 ": a name that is no string", p.pid);
        for (const StringId l : p.labels)
            if (l >= strings)
                return problemAt(0, 0, 0, "process %" PRId64 ": a label that is no string", p.pid);
    }
    const auto& threads = t.threads();
    for (size_t i = 0; i < threads.size(); ++i) {
        const Thread& h = threads[i];
        if (i && std::pair{h.pid, h.tid} < std::pair{threads[i - 1].pid, threads[i - 1].tid})
            return problemAt(0, 0, 0, "thread %" PRId64 ": out of (pid, tid) order", h.tid);
        if (h.name >= strings)
            return problemAt(0, 0, 0, "thread %" PRId64 ": a name that is no string", h.tid);
    }
    for (const auto& [name, argb] : t.nameColors())
        if (name >= strings)
            return problemAt(0, 0, 0, "a slice colour for a name that is no string");
    return checkSections(t.sections());
}

} // namespace

Problem TraceSnapshot::validate(const Trace& t, unsigned threads) {
    const size_t strings = t.strings_.size(), sets = t.args_.setCount();
    const PodVector<uint64_t>& offsets = t.args_.offsets_;
    if (offsets.size() == 0 || offsets[0] != 0 ||
        offsets[offsets.size() - 1] != t.args_.bytes_.size())
        return problemAt(ArgOffsets, 0, offsets.size() ? offsets.size() - 1 : 0,
                         "the arg offsets do not span the arg bytes");
    for (size_t i = 0; i < t.extras_.size(); ++i) {
        const SliceExtra& e = t.extras_[i];
        if ((e.gpu != SliceExtra::kNone && e.gpu >= t.gpu_.size()) ||
            (e.external != SliceExtra::kNone && e.external >= t.externalIds_.size()))
            return problemAt(Extras, 0, i, "extra %zu: an index out of range", i);
    }
    for (size_t i = 0; i < t.flows_.size(); ++i) {
        const Flow& f = t.flows_[i];
        if (!refOk(t.tracks_, f.from) || !refOk(t.tracks_, f.to) || f.category >= strings ||
            f.name >= strings)
            return problemAt(Flows, 0, i, "flow %zu: an index out of range", i);
    }
    const IdIndex* indices[2] = {&t.correlationIndex_, &t.externalIndex_};
    for (int x = 0; x < 2; ++x)
        if (Problem p = checkIndexSizes(*indices[x], x == 1); !p.ok()) return p;

    // The items the threads share: each track, the arg arena and each id index in pieces, the
    // flows' two orders.
    constexpr size_t kArgPieces = 16, kIndexPieces = 8;
    const size_t tracks = t.tracks_.size(), items = tracks + kArgPieces + 2 * kIndexPieces + 2;
    std::vector<Problem> found(items);
    std::vector<IdCounts> ids(tracks);
    const TrackLimits limits{strings, sets, t.extras_.size(), t.bounds_};
    const IdSources sources{t.tracks_, t.extras_, t.externalIds_, {indices[0], indices[1]}};
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k; (k = next.fetch_add(1)) < items;) {
            if (k < tracks) {
                found[k] = checkTrack(t.tracks_[k], uint32_t(k), limits);
                if (found[k].ok())
                    found[k] = checkSliceIds(t.tracks_[k], uint32_t(k), sources, &ids[k]);
            } else if (const size_t a = k - tracks; a < kArgPieces) {
                const std::string bad =
                    checkArgArena(t.args_.bytes_, offsets, strings, sets * a / kArgPieces,
                                  sets * (a + 1) / kArgPieces);
                if (!bad.empty()) found[k] = problemAt(ArgBytes, 0, 0, "%s", bad.c_str());
            } else if (const size_t x = a - kArgPieces; x < 2 * kIndexPieces) {
                found[k] =
                    checkIndexPiece(sources, int(x / kIndexPieces), x % kIndexPieces, kIndexPieces);
            } else if (x == 2 * kIndexPieces) {
                found[k] = checkFlowOrder(t.flows_, t.flowsByFrom_, &Flow::from, FlowsByFrom);
            } else {
                found[k] = checkFlowOrder(t.flows_, t.flowsByTo_, &Flow::to, FlowsByTo);
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned i = 1; i < std::max(threads, 1u); ++i) pool.emplace_back(work);
        work();
    }
    for (Problem& p : found)
        if (!p.ok()) return std::move(p);
    IdCounts carried;
    for (const IdCounts& c : ids)
        for (int f = 0; f < 2; ++f)
            carried.inPlace[f] += c.inPlace[f], carried.listed[f] += c.listed[f];
    for (int f = 0; f < 2; ++f) {
        const IdIndex& x = *indices[f];
        const size_t inPlace = entriesInPlace(x), listed = x.listIds.size();
        if (inPlace != carried.inPlace[f] || listed != carried.listed[f])
            return problemAt(f ? ExternalDenseCount : CorrelationDenseCount, 0, 0,
                             "the %s index holds %zu slices in place and lists %zu, where %zu and "
                             "%zu carry an id",
                             f ? "External-id" : "correlation", inPlace, listed, carried.inPlace[f],
                             carried.listed[f]);
    }
    if (Problem p = checkStackSamples(t.stackSamples_, strings, t.bounds_); !p.ok()) return p;
    return checkLists(t);
}

} // namespace strata
