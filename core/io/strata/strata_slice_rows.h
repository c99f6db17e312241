#pragma once
// The rows of .strata slice records: what one CPU slice or GPU op stores (in a CpuSlice / GpuOp
// record after its header fields, or as one row of a CpuSliceBlock / GpuOpBlock, column by
// column), and the column views both readers read rows through. Plain std and the model's
// GpuActivity (the writer includes it).
#include "io/strata/strata_fields.h"
#include "model/trace.h"

#include <cstdint>

namespace strata::format {

// GpuActivity as stored (83 bytes).
using GpuActivityFields =
    Fields<GpuActivity, &GpuActivity::device, &GpuActivity::stream, &GpuActivity::context,
           &GpuActivity::grid, &GpuActivity::block, &GpuActivity::registersPerThread,
           &GpuActivity::staticSharedBytes, &GpuActivity::dynamicSharedBytes, &GpuActivity::bytes,
           &GpuActivity::copyKind, &GpuActivity::srcMemory, &GpuActivity::dstMemory,
           &GpuActivity::graphId, &GpuActivity::graphNodeId>;
template <> struct Codec<GpuActivity> : StructCodec<GpuActivityFields> {};
inline constexpr uint32_t kGpuActivityBytes = GpuActivityFields::kBytes;
static_assert(kGpuActivityBytes == 83);
// A GPU op's track is its device and stream: the first bytes of its activity.
inline constexpr uint32_t kGpuStreamKeyBytes = 12;
static_assert(GpuActivityFields::offsetOf<&GpuActivity::device>() == 0 &&
              GpuActivityFields::offsetOf<&GpuActivity::stream>() + 8 == kGpuStreamKeyBytes);

// One CPU slice (kind: SliceKind; correlation < 0: none; returnCode != 0 becomes an arg).
struct CpuSliceRow {
    int64_t start = 0;
    int64_t end = 0;
    uint32_t name = 0; // string id
    uint8_t kind = 0;
    int64_t correlation = -1;
    int32_t returnCode = 0;
};
using CpuSliceRowFields =
    Fields<CpuSliceRow, &CpuSliceRow::start, &CpuSliceRow::end, &CpuSliceRow::name,
           &CpuSliceRow::kind, &CpuSliceRow::correlation, &CpuSliceRow::returnCode>;
template <> struct Codec<CpuSliceRow> : StructCodec<CpuSliceRowFields> {};

// One GPU op: a kernel, memcpy, memset, ... (its device and stream are in its activity).
struct GpuOpRow {
    int64_t start = 0;
    int64_t end = 0;
    uint32_t name = 0; // string id
    uint8_t kind = 0;
    int64_t correlation = -1;
    GpuActivity activity;
};
using GpuOpRowFields = Fields<GpuOpRow, &GpuOpRow::start, &GpuOpRow::end, &GpuOpRow::name,
                              &GpuOpRow::kind, &GpuOpRow::correlation, &GpuOpRow::activity>;
template <> struct Codec<GpuOpRow> : StructCodec<GpuOpRowFields> {};

// The columns every slice row starts with, the same in CPU and GPU rows: a block's columns, or
// one record's fields (a block of one row, whose columns are its consecutive fields).
struct SliceCells {
    uint32_t rows = 0;
    bool block = false; // the rows of a block record (a reader's errors name the row)
    const uint8_t *start = nullptr, *end = nullptr, *name = nullptr, *kind = nullptr,
                  *correlation = nullptr;
};

// Where each column of `rows` rows of Row's fields starts, from `first` on.
template <typename Row> SliceCells layColumns(const uint8_t* first, uint32_t rows, bool block) {
    using S = typename Row::Struct;
    auto at = [&](uint32_t offset) { return first + size_t(rows) * offset; };
    SliceCells c;
    c.rows = rows;
    c.block = block;
    c.start = at(Row::template offsetOf<&S::start>());
    c.end = at(Row::template offsetOf<&S::end>());
    c.name = at(Row::template offsetOf<&S::name>());
    c.kind = at(Row::template offsetOf<&S::kind>());
    c.correlation = at(Row::template offsetOf<&S::correlation>());
    return c;
}

// CPU slices as columns: a CpuSliceBlock's, or one CpuSlice record's (one row).
struct CpuSliceColumns : SliceCells {
    int64_t pid = 0, tid = 0;
    const uint8_t* returnCode = nullptr;
    CpuSliceColumns(int64_t pid_, int64_t tid_, const uint8_t* first, uint32_t rows, bool block)
        : SliceCells(layColumns<CpuSliceRowFields>(first, rows, block)), pid(pid_), tid(tid_),
          returnCode(first +
                     size_t(rows) * CpuSliceRowFields::offsetOf<&CpuSliceRow::returnCode>()) {}
};

// GPU ops as columns: a GpuOpBlock's, or one GpuOp record's (one row).
struct GpuOpColumns : SliceCells {
    const uint8_t* activity = nullptr; // kGpuActivityBytes per row
    GpuOpColumns(const uint8_t* first, uint32_t rows, bool block)
        : SliceCells(layColumns<GpuOpRowFields>(first, rows, block)),
          activity(first + size_t(rows) * GpuOpRowFields::offsetOf<&GpuOpRow::activity>()) {}
    const uint8_t* activityOf(size_t i) const { return activity + i * kGpuActivityBytes; }
};

} // namespace strata::format
