#pragma once
// The traces a query reads: one, or the ranks of a set (each with its rank), each with the
// analysis its gap and step tables come from (made when a query first reads them). Ids are
// global over the set: a slice's id is the same in every table (slices, gpu_ops, api_calls, args,
// flows) and unique across ranks, so tables join on ids alone.
#include "analysis/trace_analysis.h"
#include "model/trace.h"
#include "util/computed_once.h"

#include <memory>
#include <string>
#include <vector>

namespace strata {

struct QuerySource {
    std::shared_ptr<const Trace> trace;
    int32_t rank = -1; // -1: not a rank of a set (the rank column is NULL)
    std::string file;
    // The analysis the views use, when there is one (its settings hold); else one with the
    // default settings is made on first use.
    std::shared_ptr<const TraceAnalysis> analysis;
};

// Ids over (source, track, index): id = base of (source, track) + index.
class QueryIdSpace {
public:
    // counts[s][t]: rows of track t of source s.
    explicit QueryIdSpace(const std::vector<std::vector<uint64_t>>& counts);
    QueryIdSpace() = default;
    int64_t id(size_t source, uint32_t track, uint32_t index) const {
        return int64_t(bases_[first_[source] + track] + index);
    }
    // The (source, track, index) of an id; false when no row has it.
    bool locate(int64_t id, size_t* source, uint32_t* track, uint32_t* index) const;
    uint64_t total() const { return total_; }

private:
    std::vector<uint64_t> bases_; // per (source, track), flattened
    std::vector<uint64_t> ends_;  // base + count
    std::vector<size_t> first_;   // index in bases_ of each source's track 0
    uint64_t total_ = 0;
};

class QuerySources {
public:
    explicit QuerySources(std::vector<QuerySource> sources);
    size_t size() const { return sources_.size(); }
    const QuerySource& operator[](size_t i) const { return sources_[i]; }
    const Trace& trace(size_t i) const { return *sources_[i].trace; }
    const TraceAnalysis& analysis(size_t i) const;
    const QueryIdSpace& slices() const { return slices_; }
    const QueryIdSpace& instants() const { return instants_; }
    int64_t sliceId(size_t s, SliceRef r) const { return slices_.id(s, r.track, r.index); }
    uint64_t sliceCount() const { return slices_.total(); }

private:
    std::vector<QuerySource> sources_;
    QueryIdSpace slices_, instants_;
    std::vector<std::unique_ptr<ComputedOnce<std::shared_ptr<const TraceAnalysis>>>> made_;
};

} // namespace strata
