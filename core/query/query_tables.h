#pragma once
// Every table of the query layer (docs/query.md), in the order the schema lists them.
#include "query/query_sources.h"
#include "query/query_table.h"

#include <memory>
#include <vector>

namespace strata {

std::vector<std::unique_ptr<QueryTable>> makeQueryTables(const QuerySources& sources);

} // namespace strata
