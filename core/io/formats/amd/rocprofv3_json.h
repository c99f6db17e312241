#pragma once
// rocprofv3's JSON output (`rocprofv3 --output-format json`: results.json), as rocprofiler-sdk's
// source/lib/output/generateJSON.cpp writes it: {"rocprofiler-sdk-tool": [ one object per process
// ]} (older tools: the process's object itself), each with metadata (pid, command), agents,
// strings (the names of record kinds and operations, roctx messages, renamed kernels),
// kernel_symbols and buffer_records:
//   kernel_dispatch    kernels on a lane per device and stream (the queue when there is no
//                      stream): the symbol's formatted name (or --kernel-rename's), grid in
//                      work-groups, work-group size, VGPRs (arch + accum) and LDS
//   memory_copy        copies by direction (the operation's name) with their bytes, on the lane
//                      of the device side
//   hip_api, hsa_api,  API calls on (pid, thread_id): HIP runtime as cuda_runtime, HIP compiler as
//   marker_api, ...    hip_compiler, roctx as annotations named by their message (an instant when
//                      it lasts 0), the rest by their kind's name
// A call and its GPU work share correlation_id.internal. A record that cannot be shown is skipped
// and counted per array; arrays Strata does not show are named in a warning with their counts.
// The file is read as a stream (SAX): neither its text nor a tree of it is held whole. A file
// cut short keeps the records before the cut, with a warning naming the byte.
#include "io/load_result.h"
#include "model/build/trace_builder.h"

#include <string>
#include <string_view>

namespace strata {

// Whether a file starting with `head` is a JSON object whose first key is "rocprofiler-sdk-tool".
bool isRocprofv3Json(std::string_view head);
// Reads `path` into `builder`; false (and *error naming the file and byte) when nothing of it can
// be shown.
bool readRocprofv3Json(const std::string& path, const LoadOptions& options, TraceBuilder& builder,
                       LoadError* error);

} // namespace strata
