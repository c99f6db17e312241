#pragma once
// A profiler's table of strings (Nsight's StringIds, rocpd's and rpd's rocpd_string): id -> text,
// each interned once in the trace being built. The one place the SQLite readers name things.
#include "io/formats/sqlite/sqlite_db.h"
#include "model/build/trace_builder.h"

#include <string>
#include <unordered_map>

namespace strata {

class SqliteStringTable {
public:
    // Reads `sql` (two columns: id, text); false when the statement cannot be run.
    bool load(SqliteDb& db, const std::string& sql, TraceBuilder& builder);
    // The interned text of an id (the empty string for an id the table lacks).
    StringId id(int64_t key) const;
    std::string_view text(int64_t key) const;

private:
    std::unordered_map<int64_t, std::pair<StringId, std::string>> strings_;
    StringId empty_ = 0;
};

} // namespace strata
