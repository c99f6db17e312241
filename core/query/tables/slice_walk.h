#pragma once
// A cursor over slices of every source (query_sources.h), track by track in start order: every
// slice a table keeps (its kind), within time bounds on the start, or the slices of one lookup
// (an id, a correlation id, a launch's ops), or every kept slice in the order of its name, category
// or kind (GROUP BY and ORDER BY on them without SQLite's sorter: a counting sort over the
// distinct values).
#include "query/query_sources.h"
#include "query/query_table.h"

#include <functional>

namespace strata {

enum class SliceLookup : uint8_t { None, Id, Correlation, LaunchId };
// The columns a walk can deliver in order (their text's BINARY order).
enum class SliceOrder : uint8_t { None, Name, Category, Kind };

class SliceWalk : public QueryCursor {
public:
    using Keep = bool (*)(SliceKind);
    // Per column: the lookup it answers and the order it can deliver.
    SliceWalk(const QuerySources& sources, Keep keep, std::vector<SliceLookup> lookups,
              std::vector<SliceOrder> orders);
    void filter(const QueryPlan& plan, sqlite3_value* lookup) override;
    bool eof() const override { return eof_; }
    void next() override;
    int64_t rowid() const override { return sources_.sliceId(s_, {t_, i_}); }

protected:
    const QuerySources& sources_;
    // The current row.
    size_t s_ = 0;
    uint32_t t_ = 0;
    uint32_t i_ = 0;
    const Trace& trace() const { return sources_.trace(s_); }
    const Track& track() const { return sources_.trace(s_).track(t_); }
    SliceRef ref() const { return {t_, i_}; }

private:
    enum class Mode : uint8_t { Scan, List };
    bool kept(size_t s, uint32_t t, uint32_t i) const;
    void seekTrack(); // from (s_, t_) on, the first track with a kept slice in bounds
    void scanNext();
    void listGo(); // the current list entry, or eof
    void listLookup(SliceLookup how, sqlite3_value* v);
    void inOrder(SliceOrder by);

    Keep keep_;
    std::vector<SliceLookup> lookups_; // per column
    std::vector<SliceOrder> orders_;
    Mode mode_ = Mode::Scan;
    bool eof_ = true;
    TimeBounds time_;
    uint32_t end_ = 0;         // scan: the end of the current track's rows in bounds
    std::vector<int64_t> ids_; // list: slice ids in order
    size_t pos_ = 0;
};

} // namespace strata
