#include "io/formats/sqlite/sqlite_load.h"

namespace strata {

LoadResult loadSqliteTrace(const std::string& path, const SqliteRead& read) {
    LoadResult r;
    SqliteDb db;
    if (!db.open(path)) {
        r.error = LoadError{path, 0, 0, "not a readable SQLite database: " + db.error()};
        return r;
    }
    TraceBuilder builder;
    std::string error;
    if (!read(db, builder, &error)) {
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    r.trace = builder.build();
    return r;
}

bool sqliteFileIs(std::string_view head, std::string_view path,
                  const std::function<bool(const SqliteDb&)>& mine) {
    if (!isSqliteHeader(head)) return false;
    SqliteDb db;
    return db.open(std::string(path)) && mine(db);
}

} // namespace strata
