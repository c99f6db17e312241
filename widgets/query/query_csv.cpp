#include "query_csv.h"

namespace strata {

namespace {

std::string text(const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Int:
        return std::to_string(v.i);
    case QueryValue::Type::Real: {
        char b[64];
        std::snprintf(b, sizeof b, "%.17g", v.d);
        return b;
    }
    case QueryValue::Type::Text:
        return std::string(v.text);
    default:
        return {};
    }
}

} // namespace

std::string queryCsvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

void QueryCsvSink::columns(const std::vector<std::string>& names) {
    line(names);
}

bool QueryCsvSink::row(const std::vector<QueryValue>& values) {
    std::vector<std::string> cells;
    cells.reserve(values.size());
    for (const QueryValue& v : values) cells.push_back(text(v));
    line(cells);
    return std::ferror(out_) == 0; // a full disk stops the query
}

void QueryCsvSink::line(const std::vector<std::string>& cells) {
    std::string l;
    for (size_t c = 0; c < cells.size(); ++c) {
        if (c) l += ',';
        l += queryCsvField(cells[c]);
    }
    l += "\r\n";
    std::fwrite(l.data(), 1, l.size(), out_);
}

} // namespace strata
