#pragma once
// A rocprofv3 rocpd database (ROCm 7, rocpd_metadata.schema_version 3) read into a TraceBuilder,
// through the views the file defines over its session-suffixed tables (rocpd_string,
// rocpd_region, rocpd_kernel_dispatch, rocpd_memory_copy, rocpd_info_*):
//   rocpd_info_agent           GPU agents as devices (device = type_index, HIP's ordinal)
//   rocpd_info_thread          thread names (never rocpd_info_process's command or environment)
//   rocpd_region               API calls on their threads by category: HIP runtime calls as
//                              cuda_runtime, HIP compiler calls as hip_compiler, roctx markers
//                              (MARKER_*) as annotations, the rest (HSA, ...) by their category
//   rocpd_kernel_dispatch      kernels on a lane per (device, stream): the symbol's display
//                              name, grid in work-groups and work-group size
//   rocpd_memory_copy          copies (kind from the source and destination agents' types)
// A call and the GPU work it started share their event's stack_id (rocprofiler-sdk's internal
// correlation id; the correlation_id column is 0 in ROCm 7's files): that is the correlation.
#include "io/formats/sqlite/sqlite_db.h"
#include "model/build/trace_builder.h"

#include <string>

namespace strata {

bool isRocpdFile(const SqliteDb& db);
// False (and *error) when the file lacks rocpd's views.
bool readRocpdFile(SqliteDb& db, TraceBuilder& builder, std::string* error);

} // namespace strata
