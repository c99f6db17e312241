#include "query/query_csv.h"

namespace strata {

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
    for (const QueryValue& v : values) cells.push_back(v.toString());
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
