#pragma once
// A query table whose rows are numbered 0..rowCount()-1 (query_table.h): every table but the
// slice tables and args. A subclass gives the count, each cell, and optionally the rows with a
// column equal to a value (an index answers it, not a scan).
#include "query/query_sources.h"
#include "query/query_table.h"

#include <set>

namespace strata {

class RowTable : public QueryTable {
public:
    RowTable(const QuerySources& sources, std::string name, std::string doc,
             std::vector<QueryColumn> columns, std::set<int> lookups = {})
        : sources_(sources), name_(std::move(name)), doc_(std::move(doc)),
          columns_(std::move(columns)), lookups_(std::move(lookups)) {}
    std::string_view name() const override { return name_; }
    std::string_view doc() const override { return doc_; }
    const std::vector<QueryColumn>& columns() const override { return columns_; }
    bool canLookup(int col) const override { return lookups_.count(col) > 0; }
    double rowEstimate() const override { return double(rowCount()); }
    std::unique_ptr<QueryCursor> open() const override;

    // Made before a scan reads the table (an analysis computed on first use).
    virtual uint64_t rowCount() const = 0;
    virtual void value(sqlite3_context* ctx, uint64_t row, int col) const = 0;
    // The rows whose column `col` (one of `lookups`) equals v, in order.
    virtual void lookup(int /*col*/, sqlite3_value* /*v*/, std::vector<uint64_t>* /*rows*/) const {}

protected:
    const QuerySources& sources_;

private:
    std::string name_, doc_;
    std::vector<QueryColumn> columns_;
    std::set<int> lookups_;
};

// Rows made of each source's rows in turn: row -> (source, index). A QueryIdSpace of one track
// per source.
class PerSourceRows {
public:
    template <class Count> void build(const QuerySources& sources, Count count) {
        std::vector<std::vector<uint64_t>> counts;
        for (size_t s = 0; s < sources.size(); ++s) counts.push_back({uint64_t(count(s))});
        ids_ = QueryIdSpace(counts);
    }
    uint64_t total() const { return ids_.total(); }
    void locate(uint64_t row, size_t* s, size_t* i) const {
        uint32_t track = 0, index = 0;
        ids_.locate(int64_t(row), s, &track, &index);
        *i = index;
    }

private:
    QueryIdSpace ids_;
};

// Every table but the slice tables (slice_tables.h) and args (args_table.h).
std::unique_ptr<QueryTable> makeInstantsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeCountersTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeFlowsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeThreadsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeProcessesTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeDevicesTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeStepsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeGapsTable(const QuerySources& sources);
std::unique_ptr<QueryTable> makeSectionsTable(const QuerySources& sources);

} // namespace strata
