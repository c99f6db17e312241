#include "query/tables/slice_walk.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace strata {

SliceWalk::SliceWalk(const QuerySources& sources, Keep keep, std::vector<SliceLookup> lookups,
                     std::vector<SliceOrder> orders)
    : sources_(sources), keep_(keep), lookups_(std::move(lookups)), orders_(std::move(orders)) {}

bool SliceWalk::kept(size_t s, uint32_t t, uint32_t i) const {
    return !keep_ || keep_(sources_.trace(s).track(t).slices.kind[i]);
}

void SliceWalk::filter(const QueryPlan& plan, sqlite3_value* lookup) {
    time_ = plan.time;
    ids_.clear();
    pos_ = 0;
    const SliceLookup how = plan.lookupColumn >= 0 && size_t(plan.lookupColumn) < lookups_.size()
                                ? lookups_[size_t(plan.lookupColumn)]
                                : SliceLookup::None;
    if (how != SliceLookup::None) {
        mode_ = Mode::List;
        listLookup(how, lookup);
        return listGo();
    }
    if (plan.groupColumn >= 0 && size_t(plan.groupColumn) < orders_.size() &&
        orders_[size_t(plan.groupColumn)] != SliceOrder::None) {
        mode_ = Mode::List;
        inOrder(orders_[size_t(plan.groupColumn)]);
        return listGo();
    }
    mode_ = Mode::Scan;
    s_ = 0;
    t_ = 0;
    eof_ = false;
    seekTrack();
}

// Rows of the track in bounds: [first start >= lo, first start >= hi).
void SliceWalk::seekTrack() {
    for (; s_ < sources_.size(); ++s_, t_ = 0) {
        const Trace& tr = sources_.trace(s_);
        for (; t_ < tr.tracks().size(); ++t_) {
            const Column<TimeNs>& start = tr.track(t_).slices.start;
            if (start.empty()) continue;
            i_ = uint32_t(std::lower_bound(start.begin(), start.end(), time_.lo) - start.begin());
            end_ = uint32_t(std::lower_bound(start.begin() + i_, start.end(), time_.hi) -
                            start.begin());
            while (i_ < end_ && !kept(s_, t_, i_)) ++i_;
            if (i_ < end_) return;
        }
    }
    eof_ = true;
}

void SliceWalk::scanNext() {
    ++i_;
    while (i_ < end_ && !kept(s_, t_, i_)) ++i_;
    if (i_ < end_) return;
    ++t_;
    seekTrack();
}

void SliceWalk::next() {
    if (mode_ == Mode::Scan) return scanNext();
    ++pos_;
    listGo();
}

// The list's ids are in bounds already: inOrder() keeps only those, and the planner gives no
// time bounds with a lookup.
void SliceWalk::listGo() {
    for (; pos_ < ids_.size(); ++pos_)
        if (sources_.slices().locate(ids_[pos_], &s_, &t_, &i_)) {
            eof_ = false;
            return;
        }
    eof_ = true;
}

void SliceWalk::listLookup(SliceLookup how, sqlite3_value* v) {
    if (valueIsNull(v)) return;
    const int64_t key = valueInt(v);
    size_t s = 0;
    uint32_t t = 0, i = 0;
    auto addCorrelated = [&](int64_t correlation, SliceRef except) {
        if (correlation < 0) return;
        for (size_t k = 0; k < sources_.size(); ++k)
            for (SliceRef r : sources_.trace(k).byCorrelation(correlation))
                if (!(k == s && r == except) && kept(k, r.track, r.index))
                    ids_.push_back(sources_.sliceId(k, r));
    };
    switch (how) {
    case SliceLookup::Id:
        if (sources_.slices().locate(key, &s, &t, &i) && kept(s, t, i)) ids_.push_back(key);
        break;
    case SliceLookup::Correlation:
        s = SIZE_MAX;
        addCorrelated(key, {});
        break;
    case SliceLookup::LaunchId:
        // The ops the call launched: those of its correlation id in its own trace.
        if (sources_.slices().locate(key, &s, &t, &i))
            for (SliceRef r : sources_.trace(s).gpuOpsOf({t, i}))
                if (kept(s, r.track, r.index)) ids_.push_back(sources_.sliceId(s, r));
        break;
    case SliceLookup::None:
        break;
    }
    std::sort(ids_.begin(), ids_.end());
    ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
}

namespace {

// The value a slice is ordered by, as a number: a string id, or the kind.
uint32_t orderCode(const SliceColumns& c, uint32_t i, SliceOrder by) {
    return by == SliceOrder::Name       ? c.name[i]
           : by == SliceOrder::Category ? c.category[i]
                                        : uint32_t(c.kind[i]);
}

} // namespace

// The kept slices' ids in the order of a column's text (memcmp, SQLite's BINARY collation; the
// same text of several sources together), by a counting sort over the distinct values: two
// passes, no key per row.
void SliceWalk::inOrder(SliceOrder by) {
    std::vector<std::vector<uint32_t>> keyOf(sources_.size()); // per source: code -> key
    std::vector<std::string_view> texts;                       // by key
    std::unordered_map<std::string_view, uint32_t> keyOfText;
    auto eachKept = [&](auto&& f) {
        for (size_t s = 0; s < sources_.size(); ++s) {
            const Trace& tr = sources_.trace(s);
            for (uint32_t t = 0; t < tr.tracks().size(); ++t) {
                const SliceColumns& c = tr.track(t).slices;
                const auto first = std::lower_bound(c.start.begin(), c.start.end(), time_.lo);
                const auto last = std::lower_bound(first, c.start.end(), time_.hi);
                const auto end = uint32_t(last - c.start.begin());
                for (auto i = uint32_t(first - c.start.begin()); i < end; ++i)
                    if (!keep_ || keep_(c.kind[i])) f(s, t, i, orderCode(c, i, by));
            }
        }
    };
    // Pass 1: a key per distinct text, and how many rows each has.
    std::vector<uint64_t> count;
    eachKept([&](size_t s, uint32_t, uint32_t, uint32_t code) {
        auto& k = keyOf[s];
        if (code >= k.size()) k.resize(code + 1, UINT32_MAX);
        if (k[code] == UINT32_MAX) {
            const std::string_view text = by == SliceOrder::Kind ? sliceKindName(SliceKind(code))
                                                                 : sources_.trace(s).str(code);
            const auto [it, added] = keyOfText.try_emplace(text, uint32_t(texts.size()));
            if (added) {
                texts.push_back(text);
                count.push_back(0);
            }
            k[code] = it->second;
        }
        ++count[k[code]];
    });
    // The keys in text order, each group's first slot.
    std::vector<uint32_t> order(texts.size());
    for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return texts[a] < texts[b]; });
    std::vector<uint64_t> at(texts.size());
    uint64_t total = 0;
    for (uint32_t k : order) {
        at[k] = total;
        total += count[k];
    }
    // Pass 2: every id in its group's slots.
    ids_.resize(total);
    eachKept([&](size_t s, uint32_t t, uint32_t i, uint32_t code) {
        ids_[at[keyOf[s][code]]++] = sources_.slices().id(s, t, i);
    });
}

} // namespace strata
