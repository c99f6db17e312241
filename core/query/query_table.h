#pragma once
// A table of the query layer (query_engine.h): a virtual table over Strata's own columns, read
// where they lie (no copy of the trace into a database). A table names its columns, says which
// ones it can look rows up by (an equality constraint answered from an index, not a scan) and
// which it can deliver in order (ORDER BY / GROUP BY answered without SQLite's sorter), and opens
// cursors.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3_context;
struct sqlite3_value;

namespace strata {

struct QueryColumn {
    std::string name;
    std::string type; // the SQL type shown by the schema: INTEGER, REAL, TEXT
    std::string doc;  // one line for docs/query.md and the Query dock's completion
};

// A range on a table's time column (ts): rows with lo <= ts < hi (INT64 limits when open).
struct TimeBounds {
    int64_t lo = INT64_MIN;
    int64_t hi = INT64_MAX;
};

// What the planner chose for a scan, handed to QueryCursor::filter.
struct QueryPlan {
    int lookupColumn = -1; // rows whose column equals the lookup value (-1: every row)
    int groupColumn = -1;  // rows delivered in its order (BINARY); -1: any order
    TimeBounds time;       // (tables with a time column only)
};

class QueryCursor {
public:
    virtual ~QueryCursor() = default;
    // Starts a scan; `lookup` is the value of the lookup column's constraint (null without one).
    virtual void filter(const QueryPlan& plan, sqlite3_value* lookup) = 0;
    virtual bool eof() const = 0;
    virtual void next() = 0;
    virtual void column(sqlite3_context* ctx, int col) const = 0;
    virtual int64_t rowid() const = 0;
};

class QueryTable {
public:
    virtual ~QueryTable() = default;
    virtual std::string_view name() const = 0;
    virtual std::string_view doc() const = 0;
    virtual const std::vector<QueryColumn>& columns() const = 0;
    virtual bool canLookup(int /*col*/) const { return false; }
    virtual bool canGroup(int /*col*/) const { return false; }
    // The column whose >, >=, <, <= constraints bound the scan (TimeBounds), or -1.
    virtual int timeColumn() const { return -1; }
    virtual double rowEstimate() const = 0;
    virtual std::unique_ptr<QueryCursor> open() const = 0;
};

// Results for column(): text that lives as long as the engine (the trace's strings) is not
// copied; other text is.
void resultStaticText(sqlite3_context* ctx, std::string_view text);
void resultText(sqlite3_context* ctx, const std::string& text);
void resultInt(sqlite3_context* ctx, int64_t v);
void resultReal(sqlite3_context* ctx, double v);
void resultNull(sqlite3_context* ctx);
// An integer that is null when negative (ids, devices, streams: -1 means none).
void resultId(sqlite3_context* ctx, int64_t v);
int64_t valueInt(sqlite3_value* v);
std::string_view valueText(sqlite3_value* v);
bool valueIsNull(sqlite3_value* v);

} // namespace strata
