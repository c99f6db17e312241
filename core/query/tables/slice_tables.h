#pragma once
// The slice tables of the query layer (docs/query.md): slices (every slice of every track),
// gpu_ops (kernels, copies and sets, with their launch configuration, the call that launched
// each and the CPU op around that call) and api_calls (CUDA runtime and driver calls). One
// definition per field (slice_fields.cpp), shared by the three.
#include "query/query_sources.h"
#include "query/query_table.h"

#include <memory>

namespace strata {

std::unique_ptr<QueryTable> makeSlicesTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeGpuOpsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeApiCallsTable(const QuerySources& sources);

} // namespace strata
