#pragma once
// A rocmProfileData file (`rpd_tracer`'s .rpd, SQLite, schema_version 2) read into a
// TraceBuilder:
//   rocpd_api (+ rocpd_string)  HIP calls on their threads (cuda_runtime: the vocabulary every
//                               analysis knows), rpd's own table writers as profiler overhead,
//                               roctx markers ("UserMarker", their text the name) as annotations;
//                               each call's id is its correlation id
//   rocpd_op (+ rocpd_api_ops)  GPU ops on a lane per (gpuId, queueId), linked to their call:
//                               KernelExecution kernels (name, grid in work-groups, work-group
//                               size from rocpd_kernelapi), Copy* copies named as Kineto names
//                               them (bytes from rocpd_copyapi), FillBuffer sets
//   rocpd_monitor               counters per device and kind ("sclk" ...), one sample per row
// A bad row is skipped and counted; an op type Strata does not know is counted and named.
#include "io/formats/sqlite/sqlite_db.h"
#include "model/build/trace_builder.h"

#include <string>

namespace strata {

// False (and *error) when the file lacks rpd's tables.
bool readRpdFile(SqliteDb& db, TraceBuilder& builder, std::string* error);
bool isRpdFile(const SqliteDb& db);

} // namespace strata
