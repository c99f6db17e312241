#include "query/query_sources.h"

#include <algorithm>

namespace strata {

QueryIdSpace::QueryIdSpace(const std::vector<std::vector<uint64_t>>& counts) {
    for (const auto& tracks : counts) {
        first_.push_back(bases_.size());
        for (uint64_t n : tracks) {
            bases_.push_back(total_);
            total_ += n;
            ends_.push_back(total_);
        }
    }
}

bool QueryIdSpace::locate(int64_t id, size_t* source, uint32_t* track, uint32_t* index) const {
    if (id < 0 || uint64_t(id) >= total_) return false;
    // The first (source, track) whose rows end past the id.
    const size_t k =
        size_t(std::upper_bound(ends_.begin(), ends_.end(), uint64_t(id)) - ends_.begin());
    if (k >= bases_.size()) return false;
    *source = size_t(std::upper_bound(first_.begin(), first_.end(), k) - first_.begin()) - 1;
    *track = uint32_t(k - first_[*source]);
    *index = uint32_t(uint64_t(id) - bases_[k]);
    return true;
}

QuerySources::QuerySources(std::vector<QuerySource> sources) : sources_(std::move(sources)) {
    std::vector<std::vector<uint64_t>> slices, instants;
    for (const QuerySource& s : sources_) {
        auto& sc = slices.emplace_back();
        auto& ic = instants.emplace_back();
        for (const Track& t : s.trace->tracks()) {
            sc.push_back(t.slices.size());
            ic.push_back(t.instants.size());
        }
        made_.push_back(std::make_unique<ComputedOnce<std::shared_ptr<const TraceAnalysis>>>());
    }
    slices_ = QueryIdSpace(slices);
    instants_ = QueryIdSpace(instants);
}

const TraceAnalysis& QuerySources::analysis(size_t i) const {
    if (sources_[i].analysis) return *sources_[i].analysis;
    return *made_[i]->get([&] {
        return std::shared_ptr<const TraceAnalysis>(
            std::make_shared<TraceAnalysis>(sources_[i].trace));
    });
}

} // namespace strata
