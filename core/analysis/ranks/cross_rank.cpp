#include "analysis/ranks/cross_rank.h"

#include "analysis/duration_stats.h"

#include <algorithm>
#include <map>
#include <set>

namespace strata {

namespace {

TimeNs median(std::vector<TimeNs> v) {
    std::sort(v.begin(), v.end());
    return nearestRankPercentile(v, 50);
}

uint64_t addCounts(uint64_t a, uint64_t b) { // held at the limit
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

// A step's key across ranks: its name and which occurrence of that name it is on its rank (a
// prefix such as "train_step" may name every step alike).
using StepKey = std::pair<std::string, size_t>;

std::string stepLabel(const StepKey& k) {
    return k.second == 0 ? k.first : k.first + " [" + std::to_string(k.second + 1) + "]";
}

std::vector<StepKey> stepKeys(const RankDigest& r) {
    std::map<std::string, size_t> seen;
    std::vector<StepKey> keys;
    for (const DigestStep& s : r.steps) keys.push_back({s.name, seen[s.name]++});
    return keys;
}

// The step of rank r whose span holds t, or none.
std::optional<StepKey> stepAt(const RankDigest& r, const std::vector<StepKey>& keys, TimeNs t) {
    for (size_t i = 0; i < r.steps.size(); ++i)
        if (t >= r.steps[i].start && t < r.steps[i].end) return keys[i];
    return std::nullopt;
}

std::optional<CrossRankCollective> compare(const std::vector<RankDigest>& ranks,
                                           const std::vector<std::vector<StepKey>>& keys,
                                           const MatchedCollective& m, const ClockAlignment& a,
                                           TimeNs origin, std::optional<StepKey>* step) {
    CrossRankCollective c;
    c.group = m.group;
    c.op = m.op;
    c.index = m.index;
    std::map<StepKey, size_t> votes;
    for (const CollectiveMember& x : m.members) {
        if (!a.offsets[x.rank]) continue;
        const CollectiveKernel& k = ranks[x.rank].collectives[x.collective];
        if (c.name.empty()) c.name = k.name;
        c.ranks.push_back(x.rank);
        c.arrival.push_back(k.start + *a.offsets[x.rank] - origin);
        c.end.push_back(k.end + *a.offsets[x.rank] - origin);
        if (const auto s = stepAt(ranks[x.rank], keys[x.rank], k.start)) ++votes[*s];
    }
    if (c.ranks.size() < 2) return std::nullopt;
    size_t late = 0;
    for (size_t i = 1; i < c.arrival.size(); ++i)
        if (c.arrival[i] > c.arrival[late]) late = i;
    std::vector<TimeNs> others;
    for (size_t i = 0; i < c.arrival.size(); ++i) {
        c.wait.push_back(c.arrival[late] - c.arrival[i]);
        if (i != late) others.push_back(c.wait.back());
    }
    c.lateRank = c.ranks[late];
    c.lateBy = median(others);
    c.maxWait = *std::max_element(c.wait.begin(), c.wait.end());
    size_t best = 0;
    for (const auto& [k, n] : votes)
        if (n > best) best = n, *step = k;
    if (*step) c.step = stepLabel(**step);
    return c;
}

// Straggler of a step: from the waits it caused at the collectives, else from its length.
void nameStraggler(CrossRankStep& s, const std::vector<CrossRankRow>& rows) {
    std::vector<TimeNs> lengths;
    for (const RankStep& r : s.ranks) lengths.push_back(r.duration);
    if (lengths.empty()) return;
    s.medianDuration = median(lengths);
    auto better = [&](const RankStep& a, const RankStep* b, TimeNs va, TimeNs vb) {
        return !b || va > vb || (va == vb && rows[a.rank].rank < rows[b->rank].rank);
    };
    const RankStep* top = nullptr;
    for (const RankStep& r : s.ranks)
        if (better(r, top, r.causedWait, top ? top->causedWait : 0)) top = &r;
    if (s.collectives > 0 && top->causedWait > 0) {
        s.straggler = top->rank;
        s.delay = top->causedWait;
        s.byCollectives = true;
        return;
    }
    top = nullptr;
    for (const RankStep& r : s.ranks)
        if (better(r, top, r.duration, top ? top->duration : 0)) top = &r;
    s.straggler = top->rank;
    s.delay = top->duration - s.medianDuration;
}

// Each aligned rank's late start in step `s`, and the rank that started it last.
void lateStarts(CrossRankStep& s, const std::vector<CrossRankRow>& rows) {
    std::optional<TimeNs> first;
    for (const RankStep& r : s.ranks)
        if (r.start) first = std::min(first.value_or(*r.start), *r.start);
    if (!first) return;
    for (RankStep& r : s.ranks) {
        if (!r.start) continue;
        r.lateStart = *r.start - *first; // two aligned times: the difference fits
        const bool later = *r.lateStart > s.startedLate;
        const bool tie = s.lastToStart && *r.lateStart == s.startedLate &&
                         rows[r.rank].rank < rows[*s.lastToStart].rank;
        if (*r.lateStart > 0 && (later || tie)) {
            s.lastToStart = r.rank;
            s.startedLate = *r.lateStart;
        }
    }
}

RankStep rankStep(const DigestStep& d, size_t rank, const ClockAlignment& a, TimeNs origin) {
    RankStep r;
    r.rank = rank;
    if (a.offsets[rank]) r.start = d.start + *a.offsets[rank] - origin;
    r.duration = d.end - d.start;
    // Sums of a digest's durations and counts (each >= 0, read range-checked): held at the limit.
    for (const DigestDeviceStep& dev : d.devices) {
        r.busy = addSaturating(r.busy, dev.busy);
        r.idle = addSaturating(r.idle, dev.idle);
        r.kernels = addCounts(r.kernels, dev.kernels);
        for (size_t c = 0; c < size_t(kGapCauseCount); ++c)
            r.idleByCause[c] = addSaturating(r.idleByCause[c], dev.idleByCause[c]);
    }
    return r;
}

CrossRankReport reduce(const std::vector<RankDigest>& ranks, const AlignRequest& request) {
    CrossRankReport out;
    const CollectiveMatch match = matchCollectives(ranks);
    out.warnings = match.warnings;
    out.alignment = alignClocks(ranks, match, request);
    const ClockAlignment& a = out.alignment;
    std::optional<TimeNs> origin;
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankDigest& d = ranks[i];
        out.ranks.push_back({d.identity.rank, d.file, d.identity.host, a.offsets[i],
                             a.uncertainty[i], d.kernels, d.busy, d.idle, d.collectives.size(),
                             d.steps.size()});
        if (a.offsets[i])
            origin = std::min(origin.value_or(INT64_MAX), d.bounds.start + *a.offsets[i]);
    }
    out.origin = origin.value_or(0);
    std::vector<std::vector<StepKey>> keys;
    for (const RankDigest& d : ranks) keys.push_back(stepKeys(d));
    std::map<StepKey, std::map<size_t, TimeNs>> caused; // step -> rank -> wait caused
    std::map<StepKey, size_t> compared;                 // step -> instances compared
    for (const MatchedCollective& m : match.instances) {
        std::optional<StepKey> step;
        auto c = compare(ranks, keys, m, a, out.origin, &step);
        if (!c) continue;
        if (step) {
            TimeNs& sum = caused[*step][c->lateRank];
            sum = addSaturating(sum, c->lateBy);
            ++compared[*step];
        }
        out.collectives.push_back(std::move(*c));
    }
    std::stable_sort(out.collectives.begin(), out.collectives.end(),
                     [](const CrossRankCollective& x, const CrossRankCollective& y) {
                         return *std::min_element(x.arrival.begin(), x.arrival.end()) <
                                *std::min_element(y.arrival.begin(), y.arrival.end());
                     });
    // Steps in order of first appearance, rank by rank.
    std::vector<StepKey> order;
    std::map<StepKey, CrossRankStep> steps;
    for (size_t i = 0; i < ranks.size(); ++i)
        for (size_t k = 0; k < ranks[i].steps.size(); ++k) {
            auto [it, added] = steps.try_emplace(keys[i][k]);
            if (added) order.push_back(keys[i][k]);
            RankStep r = rankStep(ranks[i].steps[k], i, a, out.origin);
            r.causedWait = caused[keys[i][k]][i];
            it->second.ranks.push_back(r);
        }
    for (const StepKey& k : order) {
        CrossRankStep& s = steps[k];
        s.name = stepLabel(k);
        s.collectives = compared[k];
        nameStraggler(s, out.ranks);
        lateStarts(s, out.ranks);
        out.steps.push_back(std::move(s));
    }
    return out;
}

} // namespace

CrossRankReport crossRank(const std::vector<RankDigest>& ranks, const AlignRequest& request) {
    std::map<int64_t, std::vector<std::string>> files;
    for (const RankDigest& d : ranks) files[d.identity.rank].push_back(d.file);
    for (const auto& [rank, names] : files) {
        if (names.size() < 2) continue;
        std::vector<RankDigest> numbered = ranks;
        for (size_t i = 0; i < numbered.size(); ++i) numbered[i].identity.rank = int64_t(i);
        CrossRankReport r = reduce(numbered, request);
        r.warnings.insert(r.warnings.begin(),
                          std::to_string(names.size()) + " files claim rank " +
                              std::to_string(rank) + " (" + names[0] + ", " + names[1] +
                              (names.size() > 2 ? ", ..." : "") +
                              "): the ranks are numbered by their position in the set instead");
        return r;
    }
    return reduce(ranks, request);
}

} // namespace strata
