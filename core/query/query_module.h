#pragma once
// The SQLite side of the query layer's tables: one eponymous virtual table module per
// QueryTable, registered on a connection (query_engine.cpp). The planner (xBestIndex) takes an
// equality constraint on a column the table can look up by, the time bounds of its time column,
// and a GROUP BY on a column it can deliver grouped; the rest SQLite evaluates itself.
#include "query/query_table.h"

struct sqlite3;

namespace strata {

// Registers `table` under its name on `db`; the table must outlive the connection. False (and
// SQLite's message in *error) when it fails.
bool registerQueryTable(sqlite3* db, const QueryTable& table, std::string* error);

} // namespace strata
