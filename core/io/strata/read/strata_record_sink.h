#pragma once
// Turns the records of a .strata chunk into TraceBuilder calls: the sequential reader
// (strata_trace_reader.cpp) applies every record through it, the two-thread load
// (strata_parallel_load.cpp) the FileOrder ones (layouts in io/strata/strata_records.h).
// Internal to the reader.
#include "io/strata/read/strata_record_table.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"
#include "model/build/trace_builder.h"

#include <cinttypes>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata::strata_reader {

namespace fmt = format;

// end - start; 0, counted in `negatives`, for a slice that ends before it starts (or lasts over
// 2^63 ns).
inline TimeNs sliceDuration(TimeNs start, TimeNs end, uint64_t& negatives) {
    TimeNs d;
    if (end >= start && !__builtin_sub_overflow(end, start, &d)) return d;
    ++negatives;
    return 0;
}

// (a, b) -> track, for the few keys a trace has (threads, GPU streams): a short array searched
// linearly (cheaper than hashing for tens of keys), with a hash map behind it for many keys.
class TrackCache {
public:
    template <typename Make> TrackId get(int64_t a, int64_t b, Make make) {
        for (const Entry& e : small_)
            if (e.a == a && e.b == b) return e.track;
        const Key key{a, b};
        if (auto it = big_.find(key); it != big_.end()) return it->second;
        const TrackId t = make();
        if (small_.size() < 32)
            small_.push_back({a, b, t});
        else
            big_.emplace(key, t);
        return t;
    }

private:
    struct Entry {
        int64_t a, b;
        TrackId track;
    };
    using Key = std::pair<int64_t, int64_t>;
    struct Hash {
        size_t operator()(const Key& k) const noexcept {
            return std::hash<uint64_t>{}(uint64_t(k.first) * 0x9E3779B97F4A7C15ull ^
                                         uint64_t(k.second));
        }
    };
    std::vector<Entry> small_;
    std::unordered_map<Key, TrackId, Hash> big_;
};

// Turns records into builder calls: apply() reads a record through the RecordTable, which calls
// the load() of its type below. Each returns an empty string, or what was wrong with a record.
class RecordSink {
public:
    static constexpr size_t kMaxStringIdGap = 1u << 16;
    explicit RecordSink(TraceBuilder& b, const RecordTable& records = RecordTable::standard())
        : b_(b), records_(records) {
        strings_.push_back(StringPool::kEmpty);
        returnCodeKey_ = b_.intern("return_code");
        for (uint8_t k = 0; k <= fmt::kMaxSliceKind; ++k)
            kindCategory_[k] = b_.intern(sliceKindName(SliceKind(k)));
    }

    // A record of any type: its body size checked against its type's shape, then loaded; a
    // type the table does not hold is skipped and counted.
    std::string apply(fmt::RecordType type, const uint8_t* body, uint32_t bytes);

    // What each record type means in the model (strata_records.h has their layouts).
    std::string load(const fmt::StringRecord& r);
    std::string load(const fmt::MetadataRecord& r);
    std::string load(const fmt::ProcessRecord& r);
    std::string load(const fmt::ThreadRecord& r);
    std::string load(const fmt::DeviceRecord& r);
    std::string load(const fmt::CpuSliceColumns& c); // CpuSlice and CpuSliceBlock
    std::string load(const fmt::CpuBeginRecord& r);
    std::string load(const fmt::CpuEndRecord& r);
    std::string load(const fmt::AsyncSliceRecord& r);
    std::string load(const fmt::InstantRecord& r);
    std::string load(const fmt::GpuOpColumns& c); // GpuOp and GpuOpBlock
    std::string load(const fmt::CounterRecord& r);
    std::string load(const fmt::WarningRecord& r);
    std::string load(const fmt::EndOfFileRecord& r);
    std::string load(const fmt::NameColorRecord& r);
    std::string load(const fmt::RunRecord& r);
    std::string load(const fmt::SectionsRecord& r);
    // Sampled stacks (strata_record_stacks.cpp): a bad callsite or sample is skipped and
    // counted, never an error (noteStackProblem).
    std::string load(const fmt::CallsiteRecord& r);
    std::string load(const fmt::StackSampleColumns& c); // StackSampleBlock
    // Per-kernel metrics (strata_record_kernel_metrics.cpp): kept by correlation id, given to
    // their kernels as args by attachKernelMetrics() once the file is read (the record may come
    // before or after its kernel's row, and the two-thread load writes rows after the file-order
    // records).
    std::string load(const fmt::KernelMetricsRecord& r);
    // At the end of a load: each kept record's values as numeric args of the kernel with its
    // correlation id (a NaN value is left out: not measured); returns the records whose kernel is
    // not in the trace.
    uint64_t attachKernelMetrics();

    // Where the file's bytes start (the mapped file, or the buffer), so that a problem can name
    // a record's byte offset (its body pointer less this, less the record header).
    void setFileStart(const uint8_t* data) { fileStart_ = data; }

    // For the loads of record types added to the table (tests): the builder; the model's id of
    // file string id `fileId` (false, and problem() says why, when no String record defined it
    // yet); the SliceKind of a stored kind (false, and problem() says why, for an unknown one).
    TraceBuilder& builder() { return b_; }
    bool str(uint32_t fileId, StringId* out) {
        if (fileId < strings_.size() && (fileId == 0 || strings_[fileId] != UINT32_MAX)) {
            *out = strings_[fileId];
            return true;
        }
        bad_ = sprint("string id %" PRIu32 " is used before its String record", fileId);
        return false;
    }
    bool kind(uint8_t k, SliceKind* out) {
        if (k <= fmt::kMaxSliceKind) {
            *out = SliceKind(k);
            return true;
        }
        bad_ = sprint("slice kind %u is not a known SliceKind (0..%u)", unsigned(k),
                      unsigned(fmt::kMaxSliceKind));
        return false;
    }
    const std::string& problem() const { return bad_; }

    // For the parallel load, which applies only the FileOrder records through apply() and
    // writes the others itself: file string id -> model id (UINT32_MAX: not defined), the
    // category of a slice kind, the key of the return-code arg.
    const std::vector<StringId>& stringMap() const { return strings_; }
    StringId category(SliceKind k) const { return kindCategory_[uint8_t(k)]; }
    StringId returnCodeKey() const { return returnCodeKey_; }

    uint64_t unknownRecords = 0;
    uint64_t negativeDurations = 0;
    uint64_t nonFiniteCounters = 0; // counter samples skipped: NaN or infinite (nothing to draw)
    uint64_t endOfFileRecords = 0;
    // Stack-sample records skipped: callsites (an id defined twice or out of reach, a parent or
    // frame not defined before it), samples (an unknown callsite or kind); the first few problems
    // word for word ("StackSampleBlock record at byte 123, row 4: ...").
    uint64_t badCallsites = 0;
    uint64_t badStackSamples = 0;
    std::vector<std::string> stackProblems;
    static constexpr size_t kMaxStackProblems = 5;
    static constexpr size_t kMaxCallsiteIdGap = 1u << 16;

private:
    TraceBuilder& b_;
    const RecordTable& records_;
    std::vector<StringId> strings_; // file string id -> model id
    StringId returnCodeKey_ = 0;
    StringId kindCategory_[fmt::kMaxSliceKind + 1] = {};
    TrackCache threadTracks_;
    TrackCache gpuTracks_;
    std::string bad_;
    std::vector<CallsiteId> callsites_{kNoCallsite}; // file callsite id -> model id
    const uint8_t* fileStart_ = nullptr;
    const uint8_t* current_ = nullptr; // the body of the record being applied
    struct KernelMetrics {
        std::vector<StringId> names; // arg keys
        std::vector<double> values;
    };
    std::unordered_map<int64_t, KernelMetrics> kernelMetrics_; // by correlation id
    // The arg keys of each names string: a recording's records all name the same metrics.
    std::unordered_map<StringId, std::vector<StringId>> metricKeys_;
    std::vector<int64_t> kernelMetricsOrder_; // correlation ids, file order

    // Counts a skipped callsite or sample of the current record; keeps the first few words.
    void noteStackProblem(uint64_t& counter, const std::string& what);

    TrackId threadTrack(int64_t pid, int64_t tid) {
        return threadTracks_.get(pid, tid, [&] { return b_.threadTrack(pid, tid); });
    }
    TrackId gpuTrack(int32_t device, int64_t stream) {
        return gpuTracks_.get(device, stream,
                              [&] { return b_.gpuStreamTrack(device, stream, device, stream); });
    }
    TimeNs duration(TimeNs start, TimeNs end) {
        return sliceDuration(start, end, negativeDurations);
    }
    bool rowInput(const fmt::SliceCells& c, uint32_t i, SliceInput& s);
    std::string rowError(const fmt::SliceCells& c, uint32_t row) const;
};

} // namespace strata::strata_reader
