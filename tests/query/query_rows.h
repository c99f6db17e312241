#pragma once
// A query sink that keeps every row as text, for the query tests: NULL as "NULL", integers in
// decimal, reals as %.17g (typeof-style prefixes left out), text as it is.
#include "query/query_engine.h"

#include <string>
#include <vector>

namespace strata::test {

class QueryRows : public QuerySink {
public:
    using Row = std::vector<std::string>;
    std::vector<std::string> names;
    std::vector<Row> rows;
    size_t stopAfter = SIZE_MAX; // row() says stop once this many rows are kept

    void columns(const std::vector<std::string>& n) override {
        names = n;
        rows.clear();
    }
    bool row(const std::vector<QueryValue>& values) override {
        Row r;
        for (const QueryValue& v : values) r.push_back(text(v));
        rows.push_back(std::move(r));
        return rows.size() < stopAfter;
    }
    static std::string text(const QueryValue& v) {
        return v.type == QueryValue::Type::Null ? "NULL" : v.toString();
    }
};

// Runs `sql` and returns its rows (the last statement's); *outcome gets how it went.
inline std::vector<QueryRows::Row> query(QueryEngine& engine, const std::string& sql,
                                         QueryOutcome* outcome = nullptr) {
    QueryRows rows;
    const QueryOutcome o = engine.run(sql, rows);
    if (outcome) *outcome = o;
    return rows.rows;
}

} // namespace strata::test
