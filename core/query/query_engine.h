#pragma once
// SQL over a trace or a set of traces (docs/query.md), with SQLite as the engine: Strata's
// columns are virtual tables read where they lie (query_table.h), so making an engine costs no
// pass over the trace and a query reads only what it asks for. Read-only: a statement that would
// write, attach a file or load an extension is refused with a message; a syntax error names its
// position. Rows stream to a sink (nothing held); a query can be cancelled or bounded through its
// control (SQLite's progress handler). One engine per thread at a time.
#include "query/query_sources.h"
#include "query/query_table.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace strata {

struct QueryValue {
    enum class Type : uint8_t { Null, Int, Real, Text };
    Type type = Type::Null;
    int64_t i = 0;
    double d = 0;
    std::string_view text; // valid during the row() call only
    // As text: integers in decimal, reals to 17 significant digits, NULL empty.
    std::string toString() const;
};

// Where a statement's rows go: its columns first, then each row; row() returning false stops
// the statement (the rows so far stand).
class QuerySink {
public:
    virtual ~QuerySink() = default;
    virtual void columns(const std::vector<std::string>& names) = 0;
    virtual bool row(const std::vector<QueryValue>& values) = 0;
    // The statement begun by columns() has no more rows (also when it stopped or failed).
    virtual void end() {}
};

struct QueryControl {
    const std::atomic<bool>* cancel = nullptr; // set from any thread: the query stops
    // Called every few thousand SQLite steps with the rows so far; false stops the query.
    std::function<bool(uint64_t rows)> progress;
};

struct QueryOutcome {
    bool ok = true;
    bool cancelled = false;
    std::string error;    // what went wrong, with the position of a syntax error
    int errorOffset = -1; // byte offset of the error in the SQL, -1 unknown
    uint64_t rows = 0;    // rows delivered
    int statements = 0;   // statements run
};

class QueryEngine {
public:
    explicit QueryEngine(std::vector<QuerySource> sources);
    ~QueryEngine();
    QueryEngine(const QueryEngine&) = delete;
    QueryEngine& operator=(const QueryEngine&) = delete;

    // False (and error()) when SQLite could not be set up.
    bool ok() const { return db_ != nullptr; }
    const std::string& error() const { return error_; }
    // Runs every statement of `sql` in turn, each statement's rows to `sink`.
    QueryOutcome run(std::string_view sql, QuerySink& sink, const QueryControl& control = {});
    // The tables and their columns (for docs, completion and `.schema`).
    const std::vector<std::unique_ptr<QueryTable>>& tables() const { return tables_; }
    const QuerySources& sources() const { return sources_; }

private:
    struct Running;
    QuerySources sources_;
    std::vector<std::unique_ptr<QueryTable>> tables_;
    sqlite3* db_ = nullptr;
    std::string error_;
};

// "line 2, column 7" of a byte offset in `sql`.
std::string queryPosition(std::string_view sql, int offset);

} // namespace strata
