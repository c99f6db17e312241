#pragma once
// rocprofv3's CSV output (`rocprofv3 --output-format csv`): one file per kind of record, named
// `<prefix>kernel_trace.csv`, `<prefix>hip_api_trace.csv`, ... in one folder. Opening any of
// them reads every trace file of the same prefix beside it:
//   kernel_trace          kernels on a lane per (Agent_Id, Queue_Id): name, grid in work-groups,
//                         work-group size
//   *_api_trace, *_trace  API calls (Domain, Function) on (Process_Id, Thread_Id): HIP runtime as
//   of the API kind       cuda_runtime, HIP compiler as hip_compiler, markers as annotations (an
//                         instant when it lasts 0), the rest by their domain
//   memory_copy_trace     copies by Direction on a lane of the device side's agent
// A call and its GPU work share Correlation_Id. A row that cannot be read (a missing column, a
// bad number) is skipped and counted per file.
#include "model/build/trace_builder.h"

#include <string>
#include <string_view>

namespace strata {

// Whether a CSV's first line is the header of one of the trace files above.
bool isRocprofv3TraceCsv(std::string_view head);
// Reads `path` and the trace files of its prefix beside it; false (and *error) when `path`
// cannot be read.
bool readRocprofv3Csv(const std::string& path, TraceBuilder& builder, std::string* error);

} // namespace strata
