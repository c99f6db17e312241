#pragma once
// The older rocprof's (v1) results.db read into a TraceBuilder: HIP (API calls on their threads,
// as cuda_runtime, their args text kept), OPS (kernels on a lane per (dev-id, stream-id)) and COPY
// (copies by their name's direction, their bytes from the call's sizeBytes). A call and the GPU
// work it started share rocprof's Index, which is the correlation. dev-id is rocprof's agent
// index, kept as the device number.
#include "io/formats/sqlite/sqlite_db.h"
#include "model/build/trace_builder.h"

#include <string>

namespace strata {

bool isRocprofResults(const SqliteDb& db);
bool readRocprofResults(SqliteDb& db, TraceBuilder& builder, std::string* error);

} // namespace strata
