#include "io/formats/sqlite/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

namespace strata {

SqliteStatement::SqliteStatement(SqliteStatement&& o) noexcept
    : stmt_(std::exchange(o.stmt_, nullptr)), db_(o.db_), error_(std::move(o.error_)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(stmt_);
        stmt_ = std::exchange(o.stmt_, nullptr);
        db_ = o.db_;
        error_ = std::move(o.error_);
    }
    return *this;
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(stmt_);
}

bool SqliteStatement::step() {
    if (!stmt_) return false;
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) error_ = sqlite3_errmsg(db_);
    return false;
}

bool SqliteStatement::isNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

int64_t SqliteStatement::integer(int col, int64_t fallback) const {
    return isNull(col) ? fallback : int64_t(sqlite3_column_int64(stmt_, col));
}

double SqliteStatement::real(int col) const {
    return sqlite3_column_double(stmt_, col);
}

std::string_view SqliteStatement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    if (!p) return {};
    return std::string_view(p, size_t(sqlite3_column_bytes(stmt_, col)));
}

SqliteDb::~SqliteDb() {
    sqlite3_close(db_);
}

bool SqliteDb::open(const std::string& path) {
    // Read-only and without taking the file's locks' wait: a file another program holds locked
    // is an error at once, not a hang.
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
        error_ = db_ ? sqlite3_errmsg(db_) : "cannot open";
        return false;
    }
    SqliteStatement s = prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')");
    if (!s.valid()) return false;
    while (s.step()) tables_.insert(std::string(s.text(0)));
    if (!s.error().empty()) {
        error_ = "cannot read the schema: " + s.error();
        return false;
    }
    return true;
}

const std::set<std::string>& SqliteDb::columns(std::string_view table) const {
    const auto [it, added] = columns_.try_emplace(std::string(table));
    std::set<std::string>& out = it->second;
    if (!added || !hasTable(table)) return out;
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = "PRAGMA table_info(\"" + std::string(table) + "\")";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return out;
    while (sqlite3_step(stmt) == SQLITE_ROW)
        out.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
    sqlite3_finalize(stmt);
    return out;
}

bool SqliteDb::hasRows(std::string_view table) {
    if (!hasTable(table)) return false;
    std::string quoted = "\"";
    for (const char c : table) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    SqliteStatement s = prepare("SELECT EXISTS (SELECT 1 FROM " + quoted + "\")");
    return s.valid() && s.step() && s.integer(0);
}

SqliteStatement SqliteDb::prepare(const std::string& sql) {
    SqliteStatement s;
    s.db_ = db_;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s.stmt_, nullptr) != SQLITE_OK) {
        error_ = sqlite3_errmsg(db_);
        s.error_ = error_;
        sqlite3_finalize(s.stmt_);
        s.stmt_ = nullptr;
    }
    return s;
}

bool isSqliteHeader(std::string_view head) {
    constexpr std::string_view kMagic("SQLite format 3\0", 16);
    return head.substr(0, kMagic.size()) == kMagic;
}

} // namespace strata
