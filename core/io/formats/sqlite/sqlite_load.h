#pragma once
// The one way the SQLite readers load a file: open it read-only, let `read` fill a builder, and
// turn a file that cannot be opened or is not the reader's into a LoadError naming it.
#include "io/formats/sqlite/sqlite_db.h"
#include "io/load_result.h"
#include "model/build/trace_builder.h"

#include <functional>
#include <string>

namespace strata {

using SqliteRead = std::function<bool(SqliteDb&, TraceBuilder&, std::string* error)>;
LoadResult loadSqliteTrace(const std::string& path, const SqliteRead& read);

// recognise() for a SQLite reader: kByContent when the file opens and `mine` says it is.
bool sqliteFileIs(std::string_view head, std::string_view path,
                  const std::function<bool(const SqliteDb&)>& mine);

} // namespace strata
