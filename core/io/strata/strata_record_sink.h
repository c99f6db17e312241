#pragma once
// Turns the records of a .strata chunk into TraceBuilder calls (used by strata_trace_reader.cpp;
// layout in io/strata_format.h). Internal to the reader.
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "model/trace_builder.h"

#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata::strata_reader {

namespace fmt = format;

// Fixed-width little-endian fields from a cursor (bounds were checked by the caller).
struct Get {
    const uint8_t* p;
    template <typename T> T take() {
        T v;
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
        return v;
    }
    int64_t i64() { return take<int64_t>(); }
    uint64_t u64() { return take<uint64_t>(); }
    int32_t i32() { return take<int32_t>(); }
    uint32_t u32() { return take<uint32_t>(); }
    uint8_t u8() { return *p++; }
    double f64() { return take<double>(); }
};

// end - start; 0, counted in `negatives`, for a slice that ends before it starts (or lasts over
// 2^63 ns).
inline TimeNs sliceDuration(TimeNs start, TimeNs end, uint64_t& negatives) {
    TimeNs d;
    if (end >= start && !__builtin_sub_overflow(end, start, &d)) return d;
    ++negatives;
    return 0;
}

// The GpuActivity of a GpuOp record (kGpuActivityBytes), advancing the cursor.
GpuActivity readGpuActivity(Get& g);

// Field i of a column of fixed-width values.
template <typename T> T cell(const uint8_t* column, size_t i) {
    T v;
    std::memcpy(&v, column + i * sizeof(T), sizeof v);
    return v;
}

// The columns every slice row starts with, the same in CPU and GPU blocks and records.
struct SliceCells {
    uint32_t rows = 0;
    const uint8_t *start = nullptr, *end = nullptr, *name = nullptr, *kind = nullptr,
                  *correlation = nullptr;
    // Lays them out as a block's columns from `first` on; returns where the next column starts.
    const uint8_t* layBlock(const uint8_t* first, uint32_t n);
    // Points them at one record's fields (start at `first`, one row); returns the next field.
    const uint8_t* layRecord(const uint8_t* first);
};

// CPU slices as columns: a CpuSliceBlock's, or one CpuSlice record's (one row).
struct CpuSliceColumns : SliceCells {
    int64_t pid = 0, tid = 0;
    const uint8_t* returnCode = nullptr;
    static constexpr const char* kBlockName = "CpuSliceBlock";
    static constexpr uint32_t kHead = fmt::kCpuSliceBlockHead, kRow = fmt::kCpuSliceRow;
    static CpuSliceColumns ofRecord(const uint8_t* body);
    // A block's columns; nullopt when its size disagrees with the rows it announces.
    static std::optional<CpuSliceColumns> ofBlock(const uint8_t* body, uint32_t bodyBytes);
};

// The same for GPU ops (activity: kGpuActivityBytes per row).
struct GpuOpColumns : SliceCells {
    const uint8_t* activity = nullptr;
    static constexpr const char* kBlockName = "GpuOpBlock";
    static constexpr uint32_t kHead = fmt::kGpuOpBlockHead, kRow = fmt::kGpuOpRow;
    static GpuOpColumns ofRecord(const uint8_t* body);
    static std::optional<GpuOpColumns> ofBlock(const uint8_t* body, uint32_t bodyBytes);
    const uint8_t* activityOf(size_t i) const { return activity + i * fmt::kGpuActivityBytes; }
};

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

// Turns records into builder calls. Returns an empty string, or what was wrong with a record.
class RecordSink {
public:
    static constexpr size_t kMaxStringIdGap = 1u << 16;
    explicit RecordSink(TraceBuilder& b) : b_(b) {
        strings_.push_back(StringPool::kEmpty);
        returnCodeKey_ = b_.intern("return_code");
        for (uint8_t k = 0; k <= fmt::kMaxSliceKind; ++k)
            kindCategory_[k] = b_.intern(sliceKindName(SliceKind(k)));
    }

    std::string apply(fmt::RecordType type, Get g, uint32_t body);

    // For the parallel load, which replays only the rare records through apply() and writes
    // the others itself: file string id -> model id (UINT32_MAX: not defined), the category of
    // a slice kind, the key of the return-code arg.
    const std::vector<StringId>& stringMap() const { return strings_; }
    StringId category(SliceKind k) const { return kindCategory_[uint8_t(k)]; }
    StringId returnCodeKey() const { return returnCodeKey_; }

    uint64_t unknownRecords = 0;
    uint64_t negativeDurations = 0;
    uint64_t endOfFileRecords = 0;

private:
    TraceBuilder& b_;
    std::vector<StringId> strings_; // file string id -> model id
    StringId returnCodeKey_ = 0;
    StringId kindCategory_[fmt::kMaxSliceKind + 1] = {};
    TrackCache threadTracks_;
    TrackCache gpuTracks_;
    std::string bad_;

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
    bool rowInput(const SliceCells& c, uint32_t i, SliceInput& s);
    std::string cpuSlices(const CpuSliceColumns& c, bool block);
    std::string gpuOps(const GpuOpColumns& c, bool block);
    std::string rowError(uint32_t row, bool block) const;
};

} // namespace strata::strata_reader
