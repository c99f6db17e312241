#pragma once
// A query's rows as CSV, written as they come (the Query dock's Export CSV…): RFC 4180 as
// strata-cli query --csv writes it (a header per statement, fields with a comma, quote or line
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

std::string queryCsvField(const std::string& s);

} // namespace strata
