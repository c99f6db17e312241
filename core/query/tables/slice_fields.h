#pragma once
// The fields a slice table can show, each computed in one place from a slice of a source.
#include "query/query_sources.h"
#include "query/query_table.h"

namespace strata {

enum class SliceField : uint8_t {
    Id,
    Ts,
    Dur,
    End,
    Name,
    Category,
    Kind,
    Depth,
    ParentId,
    Self,
    Pid,
    Tid,
    Thread,
    Process,
    TrackKind,
    Correlation,
    ExternalId,
    Args,
    Rank,
    // GPU ops
    Device,
    Stream,
    Context,
    GridX,
    GridY,
    GridZ,
    Grid,
    BlockX,
    BlockY,
    BlockZ,
    Block,
    Registers,
    StaticShared,
    DynamicShared,
    Bytes,
    CopyKind,
    SrcMemory,
    DstMemory,
    GraphId,
    GraphNodeId,
    LaunchId,
    Launch,
    CpuOpId,
    CpuOp,
    // API calls
    GpuOpCount,
};

struct SliceFieldColumn {
    SliceField field;
    QueryColumn column;
};

// The value of `field` for slice r of source s.
void sliceFieldValue(sqlite3_context* ctx, const QuerySources& sources, size_t s, SliceRef r,
                     SliceField field);

} // namespace strata
