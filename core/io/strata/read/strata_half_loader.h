#pragma once
// One half of the chunks of the two-thread .strata load (strata_parallel_load.h): pass 1 counts
// what the half holds, track by track, and checks it (strata_half_count.cpp); pass 2, once the
// tracks' columns are sized, checks each chunk's CRC and writes the half's rows straight into
// them (strata_half_write.cpp). Records that add rows to a track (RecordUse::TrackRows) are
// counted and written here, one countRows / writeRows per type; all others are kept, in file
// order, for the calling thread to apply through the RecordSink between the passes.
// Internal to the reader.
#include "io/strata/read/strata_parallel_load.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_gpu_values.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_string_ids.h"
#include "io/strata/strata_track_keys.h"
#include "model/build/edge_matcher.h"
#include "model/build/trace_builder.h"
#include "util/pod_vector.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::strata_reader {

// A record applied in file order through the RecordSink (RecordUse::FileOrder, or a type the
// standard table does not hold).
struct RareRecord {
    format::RecordType type;
    const uint8_t* body;
    uint32_t bytes;
};

// A non-zero return code, made an arg once both halves are written (arg sets are numbered in
// the order they are made).
struct PendingArg {
    uint32_t key;
    size_t slice;
    int32_t returnCode;
};

class HalfLoader {
public:
    HalfLoader(const uint8_t* data, const std::vector<ChunkSpan>& chunks, size_t first, size_t last)
        : data_(data), chunks_(chunks), first_(first), last_(last) {}

    std::vector<KeyState> keys;
    std::vector<RareRecord> rare;                     // in file order
    StringIdSet defined{RecordSink::kMaxStringIdGap}; // string ids defined in this half
    uint32_t maxOutsideRef = 0;     // highest string id used but not defined before here
    size_t extras = 0;              // slices with an extra
    uint32_t firstExtra = 0;        // the first one's index in the trace
    SliceExtra* extraOut = nullptr; // where they are written
    PodVector<GpuActivity> gpu;     // this half's distinct values (indices local)
    std::vector<PendingArg> args;   // non-zero return codes, in file order
    uint64_t negativeDurations = 0;
    uint64_t nonFiniteCounters = 0; // counter samples skipped: NaN or infinite

    // Pass 1. False: the half needs the sequential reader (or the load was cancelled).
    bool count();

    // Pass 2, once every key has its track and columns, the extras their place, and the rare
    // records were replayed (string ids map to the model's; definedAt[id]: the file offset of
    // the record defining string id): each chunk's CRC and sequence number checked, then its
    // records written. False: the half needs the sequential reader.
    bool write(const RecordSink& sink, const std::vector<uint64_t>& definedAt);

    // Set when the progress callback (called by the first half only) asked to stop.
    bool cancelled = false;
    // The chunks before this one: their definitions only (ParallelLoadHooks::rowsFromChunk).
    size_t rowsFrom = 0;

    void setContext(std::atomic<bool>* stop, const ParallelLoadHooks* hooks, bool reports) {
        stop_ = stop;
        hooks_ = hooks;
        reports_ = reports;
    }

private:
    using RT = format::RecordType;
    // What a pass does with one record: a member per type byte (Steps).
    using Step = bool (HalfLoader::*)(RT, const uint8_t*, uint32_t);
    using Steps = std::array<Step, 256>;

    const uint8_t* data_;
    const std::vector<ChunkSpan>& chunks_;
    size_t first_, last_;
    KeyIndex keyIndex_;
    GpuValuesByBytes gpuValues_;
    const uint8_t* record_ = nullptr; // the body of the record pass 2 is writing
    size_t nextExtra_ = 0;
    size_t extrasBacked_ = 0;
    const StringId* names_ = nullptr;
    const uint64_t* definedAt_ = nullptr;
    uint32_t nameCount_ = 0;
    StringId category_[format::kMaxSliceKind + 1] = {};
    std::atomic<bool>* stop_ = nullptr;
    const ParallelLoadHooks* hooks_ = nullptr;
    bool reports_ = false;
    size_t stepped_ = 0;     // file bytes of this half done at the last step (afterChunk)
    double passBase_ = 0;    // progress at the start of this pass
    bool handsBack_ = false; // this pass hands file bytes back at each step

    // Both passes (strata_half_loader.cpp, the keys here).
    bool eachRecord(size_t chunk, const Steps& steps);
    void startPass(double base, bool handsBack);
    void afterChunk(size_t chunk);
    uint32_t key(KeyKind kind, int64_t a, int64_t b, uint64_t c = 0) {
        return keyIndex_.get(TrackKey{kind, a, b, c}, [&] {
            keys.emplace_back().key = TrackKey{kind, a, b, c};
            return static_cast<uint32_t>(keys.size() - 1);
        });
    }
    KeyState& threadKey(int64_t pid, int64_t tid) { return keys[key(KeyKind::Thread, pid, tid)]; }
    // The key of a GPU op: the device and stream of its activity.
    uint32_t gpuKey(const uint8_t* activity) {
        using F = format::GpuActivityFields;
        return key(KeyKind::Gpu, F::get<&GpuActivity::device>(activity),
                   F::get<&GpuActivity::stream>(activity));
    }
    static bool kindOk(uint8_t k) { return k <= format::kMaxSliceKind; }

    // Pass 1 (strata_half_count.cpp).
    static const Steps& countSteps();
    template <typename R> bool countAs(RT type, const uint8_t* body, uint32_t bytes);
    bool keep(RT type, const uint8_t* body, uint32_t bytes);
    void ref(uint32_t id) {
        if (id != 0 && !defined.has(id)) maxOutsideRef = std::max(maxOutsideRef, id);
    }
    bool countRows(const format::CpuSliceColumns& c);
    bool countRows(const format::GpuOpColumns& c);
    bool countRows(const format::CpuBeginRecord& r);
    bool countRows(const format::CpuEndRecord& r);
    bool countRows(const format::AsyncSliceRecord& r);
    bool countRows(const format::InstantRecord& r);
    bool countRows(const format::CounterRecord& r);

    // Pass 2 (strata_half_write.cpp).
    static const Steps& writeSteps();
    template <typename R> bool writeAs(RT type, const uint8_t* body, uint32_t bytes);
    bool pass(RT type, const uint8_t* body, uint32_t bytes);
    static void backColumns(KeyState& k, size_t upTo);
    void backExtras(size_t upTo);
    size_t sliceRows(KeyState& k, const uint8_t* start, const uint8_t* end, const uint8_t* name,
                     const uint8_t* kind, uint32_t n);
    static bool addEdge(KeyState& k, const RawEdge& e);
    bool writeRows(const format::CpuSliceColumns& c);
    bool writeRows(const format::GpuOpColumns& c);
    bool writeRows(const format::CpuBeginRecord& r);
    bool writeRows(const format::CpuEndRecord& r);
    bool writeRows(const format::AsyncSliceRecord& r);
    bool writeRows(const format::InstantRecord& r);
    bool writeRows(const format::CounterRecord& r);
};

} // namespace strata::strata_reader
