#pragma once
// Where a value sits in rocprofv3's JSON, as Rocprofv3JsonSax tells places apart: the role of each
// container and the keys the reader looks for (io/formats/amd/rocprofv3_json_sax.h).
#include "io/formats/amd/rocprofv3_json_sax.h"

namespace strata {

// Where a container sits in rocprofv3's JSON (rocprofiler-sdk's source/lib/output/
// generateJSON.cpp writes {"rocprofiler-sdk-tool": [ {metadata, agents, strings, kernel_symbols,
// buffer_records, callback_records, ...} per process ]}; older tools wrote the process's object
// in place of the list).
enum class Rocprofv3JsonSax::Role : uint8_t {
    Skip, // parsed past
    Root,
    ToolList,
    Process,
    Metadata,
    Command,
    Agents,
    Agent,
    AgentId,
    Strings,
    KindNames, // strings.buffer_records
    KindName,
    Operations,
    MarkerMessages, // strings.marker_api: [{"key": correlation id, "value": message}]
    MarkerMessage,
    CorrelationStrings, // strings.correlation_id
    RenamedKernels,     // strings.correlation_id.external: [{"key", "value"}]
    RenamedKernel,
    Symbols,
    Symbol,
    BufferRecords,
    CallbackRecords,
    Records,         // an array of buffer_records Strata shows
    NotShownRecords, // any other array of records
    Record,
    RecordPart, // an object inside a record (correlation_id, dispatch_info, agent ids, ...)
};

enum class Rocprofv3JsonSax::Key : uint8_t {
    None,
    Other,
    Tool,
    Metadata,
    Pid,
    Command,
    Agents,
    Id,
    Handle,
    Type,
    LogicalNodeTypeId,
    GpuIndex,
    CuCount,
    Name,
    ProductName,
    ModelName,
    Strings,
    BufferRecords,
    MarkerApi,
    CorrelationId,
    External,
    Internal,
    Kind,
    Operations,
    MapKey,
    MapValue,
    KernelSymbols,
    KernelId,
    KernelName,
    FormattedKernelName,
    DemangledKernelName,
    GroupSegmentSize,
    ArchVgprCount,
    AccumVgprCount,
    CallbackRecords,
    Operation,
    ThreadId,
    StartTimestamp,
    EndTimestamp,
    DispatchInfo,
    StreamId,
    SrcAgentId,
    DstAgentId,
    Bytes,
    AgentId,
    QueueId,
    WorkgroupSize,
    GridSize,
    X,
    Y,
    Z,
};

// Whether values in a container of this role fill the process's tables.
bool rocprofv3TableRole(Rocprofv3JsonSax::Role r);

} // namespace strata
