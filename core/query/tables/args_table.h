#pragma once
// The args table of the query layer: one row per (event, key), typed values (an integer, a real,
// text, or a JSON text for arrays and objects), for slices (slice_id) and instants (instant_id).
// Looked up by slice_id or instant_id; a scan decodes every arg set once.
#include "query/query_sources.h"
#include "query/query_table.h"

#include <memory>

namespace strata {

std::unique_ptr<QueryTable> makeArgsTable(const QuerySources& sources);

} // namespace strata
