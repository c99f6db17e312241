// The two-thread .strata load (strata_parallel_load.h): the chunks split in two halves, each
// counted and then written by a HalfLoader on its own thread; between the passes, on the calling
// thread, the FileOrder records applied through the RecordSink, the tracks made and their columns
// sized; after them, the halves' GPU values and return-code args joined.
#include "io/strata/read/strata_parallel_load.h"

#include "io/strata/read/strata_half_loader.h"
#include "util/parallel_for.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <unordered_map>

namespace strata::strata_reader {

namespace {

// Runs f(half) for both halves, the second on a helper thread; rethrows what either threw.
template <typename F> void onBothHalves(F&& f) {
    std::exception_ptr helperError;
    std::thread helper([&] {
        try {
            f(1);
        } catch (...) {
            helperError = std::current_exception();
        }
    });
    std::exception_ptr mine;
    try {
        f(0);
    } catch (...) {
        mine = std::current_exception();
    }
    helper.join();
    if (mine) std::rethrow_exception(mine);
    if (helperError) std::rethrow_exception(helperError);
}

// The string checks only the whole file can make: the first half uses no string it did not
// define before; the second half uses only strings the first defined (or it defined before)
// and defines none of them again.
bool stringsConsistent(const HalfLoader& h0, const HalfLoader& h1) {
    if (h0.maxOutsideRef != 0) return false;
    for (uint32_t id = 1; id <= h1.maxOutsideRef; ++id)
        if (!h0.defined.has(id)) return false;
    for (uint32_t id = h1.defined.first(); id < h1.defined.end(); ++id)
        if (h1.defined.has(id) && h0.defined.has(id)) return false;
    return true;
}

// The builder's track for a key (file string ids mapped), created on first use.
TrackId trackOf(const TrackKey& k, TraceBuilder& b, const std::vector<StringId>& names) {
    switch (k.kind) {
    case KeyKind::Thread:
        return b.threadTrack(k.a, k.b);
    case KeyKind::Gpu:
        return b.gpuStreamTrack(int32_t(k.a), k.b, k.a, k.b);
    case KeyKind::Counter:
        return b.counterTrack(k.a, names[size_t(k.b)]);
    case KeyKind::Async:
        return b.asyncTrack(k.a, names[size_t(k.b)], k.c);
    }
    return UINT32_MAX;
}

} // namespace

ParallelLoad loadChunksInParallel(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                                  TraceBuilder& builder, RecordSink& sink,
                                  const ParallelLoadHooks& hooks) {
    // Halves of about equal bytes of rows.
    size_t mid = std::min(hooks.rowsFromChunk, chunks.size());
    if (mid < chunks.size()) {
        const size_t from = chunks[mid].offset, half = (chunks.back().end() - from) / 2;
        while (mid < chunks.size() && chunks[mid].end() - from <= half) ++mid;
    }
    PhaseTimer phases;
    HalfLoader halves[2] = {{data, chunks, 0, mid}, {data, chunks, mid, chunks.size()}};
    std::atomic<bool> stop{false};
    for (int h = 0; h < 2; ++h) halves[h].setContext(&stop, &hooks, h == 0);
    halves[0].rowsFrom = hooks.rowsFromChunk;

    // Pass 1: count and check.
    bool ok[2] = {false, false};
    onBothHalves([&](int h) {
        ok[h] = halves[h].count();
        if (!ok[h]) stop = true;
    });
    if (halves[0].cancelled) return ParallelLoad::Cancelled;
    if (!ok[0] || !ok[1] || !stringsConsistent(halves[0], halves[1]))
        return ParallelLoad::NeedsSequential;

    phases.mark("count, check");
    // The records the halves kept (FileOrder types, and types only the sink's table holds), in
    // file order, exactly as the sequential load applies them.
    for (const HalfLoader& h : halves)
        for (const RareRecord& r : h.rare)
            if (!sink.apply(r.type, r.body, r.bytes).empty()) return ParallelLoad::NeedsSequential;
    const std::vector<StringId>& names = sink.stringMap();
    // Where each string is defined (id 0, "", before everything; UINT64_MAX: nowhere), for the
    // checks of slice rows in pass 2.
    std::vector<uint64_t> definedAt(names.size(), UINT64_MAX); // the sink maps id 0 from the start
    definedAt[0] = 0;
    for (const HalfLoader& h : halves)
        for (const RareRecord& r : h.rare)
            if (r.type == fmt::RecordType::String)
                definedAt[fmt::readRecord<fmt::StringRecord>(r.body, r.bytes).id] =
                    uint64_t(r.body - data);

    // Tracks in order of first use (the first half's keys, then the second's new ones), each
    // key's counts added to its track's. Two different keys on one track (only when a file
    // defines the same text under two ids) would interleave: the sequential load handles that.
    std::vector<TraceBuilder::PrefillCounts> total;
    std::unordered_map<TrackId, const TrackKey*> keyOf;
    for (HalfLoader& h : halves)
        for (KeyState& k : h.keys) {
            k.track = trackOf(k.key, builder, names);
            auto [it, added] = keyOf.try_emplace(k.track, &k.key);
            if (!added && !(*it->second == k.key)) return ParallelLoad::NeedsSequential;
            if (total.size() <= k.track) total.resize(k.track + 1);
            auto& t = total[k.track];
            t.slices += k.n.slices;
            t.begins += k.n.begins;
            t.edges += k.n.edges;
            t.counterSamples += k.n.counterSamples;
            t.instants += k.n.instants;
        }
    // Columns sized once (both cores share the page faults); the second half writes after the
    // first half's part of each track.
    std::vector<TraceBuilder::Prefilled> out(total.size());
    std::vector<TrackId> used;
    for (const auto& [track, key] : keyOf) used.push_back(track);
    parallelFor(used.size(), true,
                [&](size_t i) { out[used[i]] = builder.prefill(used[i], total[used[i]]); });
    std::vector<const KeyState*> firstHalfKey(total.size(), nullptr);
    for (KeyState& k : halves[0].keys) {
        k.out = out[k.track];
        firstHalfKey[k.track] = &k;
    }
    for (KeyState& k : halves[1].keys) {
        k.out = out[k.track];
        if (const KeyState* before = firstHalfKey[k.track]) {
            k.slice = before->n.slices;
            k.edge = before->n.edges;
            k.counter = before->n.counterSamples;
            k.instant = before->n.instants;
            k.seq = uint32_t(before->n.slices + before->n.begins);
        }
    }
    for (HalfLoader& h : halves)
        for (KeyState& k : h.keys) {
            k.sliceEnd = k.slice + k.n.slices;
            k.backed = k.slice;
            k.edgeEnd = k.edge + k.n.edges;
            k.counterEnd = k.counter + k.n.counterSamples;
            k.instantEnd = k.instant + k.n.instants;
        }
    phases.mark("size columns");
    uint32_t firstExtra = 0;
    SliceExtra* extraOut = builder.prefillExtras(halves[0].extras + halves[1].extras, &firstExtra);
    halves[0].firstExtra = firstExtra;
    halves[1].firstExtra = firstExtra + uint32_t(halves[0].extras);
    halves[0].extraOut = extraOut;
    halves[1].extraOut = extraOut + halves[0].extras;

    // Pass 2: check each chunk's CRC, write.
    bool written[2] = {false, false};
    onBothHalves([&](int h) {
        written[h] = halves[h].write(sink, definedAt);
        if (!written[h]) stop = true;
    });
    if (halves[0].cancelled) return ParallelLoad::Cancelled;
    if (!written[0] || !written[1]) return ParallelLoad::NeedsSequential;

    phases.mark("write records");
    // GPU activity values of each half, renumbered after the ones before them.
    for (int h = 0; h < 2; ++h) {
        const uint32_t base =
            builder.appendGpuActivities(halves[h].gpu.data(), halves[h].gpu.size());
        if (base == 0) continue;
        SliceExtra* e = halves[h].extraOut;
        for (size_t i = 0; i < halves[h].extras; ++i)
            if (e[i].gpu != SliceExtra::kNone) e[i].gpu += base;
    }
    // Return codes as args, in file order (arg sets are numbered as they are made).
    ArgStore& args = builder.args();
    for (const HalfLoader& h : halves)
        for (const PendingArg& a : h.args) {
            args.begin();
            args.addInt(sink.returnCodeKey(), a.returnCode);
            h.keys[a.key].out.slices->args[a.slice] = args.finish();
        }
    sink.negativeDurations += halves[0].negativeDurations + halves[1].negativeDurations;
    sink.nonFiniteCounters += halves[0].nonFiniteCounters + halves[1].nonFiniteCounters;
    return ParallelLoad::Loaded;
}

} // namespace strata::strata_reader
