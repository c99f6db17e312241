#pragma once
// How strata-cli query prints rows: a table for the terminal (widths from the first rows, the
// rest streamed), JSON (an array of objects per statement) or CSV (RFC 4180, a header per
// statement); and the schema (--schema).
#include "query/query_engine.h"

#include <cstdio>
#include <memory>

namespace strata::cli {

std::unique_ptr<QuerySink> tableQuerySink(std::FILE* out);
std::unique_ptr<QuerySink> jsonQuerySink(std::FILE* out);
std::unique_ptr<QuerySink> csvQuerySink(std::FILE* out);
void printSchema(const QueryEngine& engine, bool json);

} // namespace strata::cli
