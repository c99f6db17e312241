#pragma once
// The slices the writer has not written out yet, one block per CPU thread and per GPU stream,
// kept column by column (io/strata/strata_records.h: CpuSliceBlock, GpuOpBlock) until the block is
// closed: by the chunk's flush, or, for a thread, by its next NVTX push or pop, so that every
// thread's slices and push/pops keep their order in the file. Plain std (the collector links
// it through StrataTraceWriter); not synchronized (the writer's mutex covers it).
#include "io/strata/strata_records.h"
#include "model/slice_kind.h"
#include "model/time.h"
#include "model/trace.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace strata {

class StrataBlockBuffer {
public:
    void cpuSlice(int64_t pid, int64_t tid, TimeNs start, TimeNs end, uint32_t name, SliceKind kind,
                  int64_t correlation, int32_t returnCode);
    // `count` rows of one thread's CPU slices at once.
    void cpuSlices(int64_t pid, int64_t tid, const format::CpuSliceRow* rows, size_t count);
    void gpuOp(TimeNs start, TimeNs end, uint32_t name, SliceKind kind, const GpuActivity& gpu,
               int64_t correlation);
    // Appends thread (pid, tid)'s open block, if it has one, to `out` as one record; returns
    // the records appended (0 or 1).
    uint32_t closeThread(int64_t pid, int64_t tid, std::vector<uint8_t>& out);
    // Appends every open block, in the order they were opened; returns the records appended.
    uint32_t closeAll(std::vector<uint8_t>& out);
    // What the open blocks will take in the chunk, record headers included.
    size_t pendingBytes() const { return pendingBytes_; }
    void clear();

private:
    struct Key {
        bool gpu;
        int64_t a, b; // (pid, tid) | (device, stream)
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const noexcept {
            return size_t((uint64_t(k.a) * 0x9E3779B97F4A7C15ull) ^
                          (uint64_t(k.b) * 0xC2B2AE3D27D4EB4Full) ^ uint64_t(k.gpu));
        }
    };
    static constexpr size_t kColumns =
        std::max(format::CpuSliceRowFields::kCount, format::GpuOpRowFields::kCount);
    struct Block {
        Key key;
        uint32_t rows = 0;
        bool open = false;
        std::vector<uint8_t> columns[kColumns]; // one per field of a row, in file order
    };
    std::unordered_map<Key, size_t, KeyHash> index_;
    std::vector<Block> blocks_;
    std::vector<size_t> openOrder_;
    size_t pendingBytes_ = 0;

    // Key's block, opened if it is not.
    Block& openBlock(const Key& key);
    // A row appended to a block: each of its fields (RowFields, strata_slice_rows.h) to its column.
    template <typename RowFields> void appendRow(Block& b, const typename RowFields::Struct& row);
    void write(Block& b, std::vector<uint8_t>& out);
};

} // namespace strata
