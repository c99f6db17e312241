#pragma once
// A query's rows as CSV, written as they come (strata-cli query --csv, the Query dock's Export
// CSV…): RFC 4180 (a header per statement, fields with a comma, quote or line
// break quoted, CRLF line ends, reals to 17 significant digits, NULL as an empty field).
#include "query/query_engine.h"

#include <cstdio>

namespace strata {

class QueryCsvSink : public QuerySink {
public:
    explicit QueryCsvSink(std::FILE* out) : out_(out) {}
    void columns(const std::vector<std::string>& names) override;
    bool row(const std::vector<QueryValue>& values) override;

private:
    void line(const std::vector<std::string>& cells);
    std::FILE* out_;
};

// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
std::string queryCsvField(const std::string& s);

} // namespace strata
