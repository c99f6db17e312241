#pragma once
// A SQLite file opened read-only (Debian's libsqlite3), for the readers of profilers that write
// SQLite (Nsight Systems exports; AMD's rocpd, rocprof and rpd files): the tables and columns
// the file has, and statements stepped row by row. Nothing is written, no journal is made; a
// locked or damaged file gives an error naming the file and, for a statement, the table.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace strata {

class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(SqliteStatement&& o) noexcept;
    SqliteStatement& operator=(SqliteStatement&& o) noexcept;
    ~SqliteStatement();
    bool valid() const { return stmt_ != nullptr; }
    // The next row: true while there is one; false at the end or on an error (error()).
    bool step();
    bool isNull(int col) const;
    int64_t integer(int col, int64_t fallback = 0) const; // fallback when NULL
    double real(int col) const;
    std::string_view text(int col) const; // empty when NULL
    const std::string& error() const { return error_; }

private:
    friend class SqliteDb;
    sqlite3_stmt* stmt_ = nullptr;
    sqlite3* db_ = nullptr;
    std::string error_;
};

class SqliteDb {
public:
    // Opens `path` read-only; false (and error()) when it is not a SQLite database or cannot be
    // read (a locked file is said so).
    bool open(const std::string& path);
    ~SqliteDb();
    bool hasTable(std::string_view table) const { return tables_.count(std::string(table)) > 0; }
    const std::set<std::string>& tables() const { return tables_; }
    // The columns of a table or view (empty when there is none), asked of SQLite once per table.
    const std::set<std::string>& columns(std::string_view table) const;
    // A statement, or an invalid one and error() naming the SQL's problem.
    SqliteStatement prepare(const std::string& sql);
    // Whether `table` exists and holds a row (a reader names such tables it does not show).
    bool hasRows(std::string_view table);
    const std::string& error() const { return error_; }

private:
    sqlite3* db_ = nullptr;
    std::set<std::string> tables_; // tables and views
    mutable std::map<std::string, std::set<std::string>> columns_;
    std::string error_;
};

// Whether the first bytes are SQLite's file header.
bool isSqliteHeader(std::string_view head);

} // namespace strata
