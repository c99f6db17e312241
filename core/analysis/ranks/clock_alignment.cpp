#include "analysis/ranks/clock_alignment.h"

#include "analysis/duration_stats.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <map>

namespace strata {

namespace {

using Offsets = std::vector<std::optional<TimeNs>>;

TimeNs median(std::vector<TimeNs> v) {
    std::sort(v.begin(), v.end());
    return nearestRankPercentile(v, 50); // the lower middle value, as everywhere in Strata
}

std::string rankName(const RankDigest& r) {
    return "rank " + std::to_string(r.identity.rank);
}

// The rank with the lowest rank number among those `eligible` says.
template <typename Eligible>
std::optional<size_t> lowestRank(const std::vector<RankDigest>& ranks, Eligible eligible) {
    std::optional<size_t> best;
    for (size_t i = 0; i < ranks.size(); ++i)
        if (eligible(i) && (!best || ranks[i].identity.rank < ranks[*best].identity.rank)) best = i;
    return best;
}

std::vector<std::string> missingTimeBase(const std::vector<RankDigest>& ranks) {
    std::vector<std::string> names;
    for (const RankDigest& r : ranks)
        if (!r.clock.commonBaseOffset()) names.push_back(rankName(r));
    return names;
}

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > 8) s += " and " + std::to_string(names.size() - 8) + " more";
    return s;
}

// `offset`, when it keeps every time of the rank within +-kMaxTimeNs (its bounds hold its times:
// the digest reader checks that), so that any two aligned times differ by what fits in TimeNs.
std::optional<TimeNs> offsetInRange(const RankDigest& r, std::optional<TimeNs> offset) {
    TimeNs start = 0, end = 0;
    if (!offset || __builtin_add_overflow(r.bounds.start, *offset, &start) ||
        __builtin_add_overflow(r.bounds.end, *offset, &end) || !timeInRange(start) ||
        !timeInRange(end))
        return std::nullopt;
    return offset;
}

std::string beyondRange(const std::vector<std::string>& names) {
    return joined(names) + ": the offset would put its times beyond +-2^62 ns (146 years) of the " +
           "aligned timeline: not aligned (no offset claimed)";
}

// Drops the offsets that would put a rank's times out of range, saying which.
void keepInRange(const std::vector<RankDigest>& ranks, Offsets& offsets,
                 std::vector<std::string>& warnings) {
    std::vector<std::string> far;
    for (size_t i = 0; i < ranks.size(); ++i)
        if (offsets[i] && !offsetInRange(ranks[i], offsets[i])) {
            offsets[i].reset();
            far.push_back(rankName(ranks[i]));
        }
    if (!far.empty()) warnings.push_back(beyondRange(far));
}

void timeOffsets(const std::vector<RankDigest>& ranks, ClockAlignment& a) {
    a.method = AlignMethod::Time;
    for (size_t i = 0; i < ranks.size(); ++i)
        a.offsets[i] = ranks[i].clock.commonBaseOffset().value_or(0);
    keepInRange(ranks, a.offsets, a.warnings);
    const std::vector<std::string> missing = missingTimeBase(ranks);
    if (missing.size() == ranks.size())
        a.warnings.push_back("no rank has a common time base (neither baseTimeNanoseconds nor "
                             "wall-clock timestamps): their own timestamps are used as they are");
    else if (!missing.empty())
        a.warnings.push_back(joined(missing) + " without a common time base (neither "
                                               "baseTimeNanoseconds nor wall-clock timestamps): "
                                               "their own timestamps are used as they are");
}

// Aligns the ranks that share matched instances with the reference, then those that share some
// with a rank aligned in an earlier round (through the one they share most with).
void collectiveOffsets(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
                       ClockAlignment& a) {
    std::vector<bool> inMatch(ranks.size(), false);
    for (const MatchedCollective& m : match.instances)
        for (const CollectiveMember& x : m.members) inMatch[x.rank] = true;
    const auto ref = lowestRank(ranks, [&](size_t i) { return inMatch[i]; });
    if (!ref) return;
    a.method = AlignMethod::Collectives;
    a.reference = *ref;
    // Its time-base offset, when that keeps its times in range (0 always does).
    a.offsets[*ref] = offsetInRange(ranks[*ref], ranks[*ref].clock.commonBaseOffset()).value_or(0);
    auto end = [&](const CollectiveMember& x) {
        return ranks[x.rank].collectives[x.collective].end;
    };
    std::vector<bool> far(ranks.size(), false);
    for (bool progress = true; progress;) {
        progress = false;
        const Offsets known = a.offsets; // aligned in earlier rounds
        // diffs[r][q]: aligned end on q minus r's own end, per shared instance.
        std::map<size_t, std::map<size_t, std::vector<TimeNs>>> diffs;
        std::vector<const CollectiveMember*> anchors; // the instance's members aligned already
        for (const MatchedCollective& m : match.instances) {
            anchors.clear();
            for (const CollectiveMember& q : m.members)
                if (known[q.rank]) anchors.push_back(&q);
            if (anchors.empty()) continue;
            for (const CollectiveMember& r : m.members) {
                if (known[r.rank] || far[r.rank]) continue;
                // An aligned end (in range) minus an end (in range): fits in TimeNs.
                for (const CollectiveMember* q : anchors)
                    diffs[r.rank][q->rank].push_back(end(*q) + *known[q->rank] - end(r));
            }
        }
        for (auto& [r, byPartner] : diffs) {
            const std::vector<TimeNs>* best = nullptr;
            for (const auto& [q, d] : byPartner)
                if (!best || d.size() > best->size()) best = &d;
            a.offsets[r] = offsetInRange(ranks[r], median(*best));
            far[r] = !a.offsets[r];
            progress = true;
        }
    }
    std::vector<std::string> lone, beyond;
    for (size_t i = 0; i < ranks.size(); ++i)
        if (far[i])
            beyond.push_back(rankName(ranks[i]));
        else if (!a.offsets[i])
            lone.push_back(rankName(ranks[i]));
    if (!beyond.empty()) a.warnings.push_back(beyondRange(beyond));
    if (!lone.empty())
        a.warnings.push_back(joined(lone) + " share no matched collective with the others: not "
                                            "aligned (no offset claimed)");
}

void stepOffsets(const std::vector<RankDigest>& ranks, const std::string& name, ClockAlignment& a) {
    std::vector<std::optional<TimeNs>> start(ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i)
        for (const DigestStep& s : ranks[i].steps)
            if (s.name == name) {
                start[i] = s.start;
                break;
            }
    const auto ref = lowestRank(ranks, [&](size_t i) { return start[i].has_value(); });
    const size_t having = size_t(
        std::count_if(start.begin(), start.end(), [](const auto& s) { return s.has_value(); }));
    if (!ref || having < 2) return;
    a.method = AlignMethod::Step;
    a.stepName = name;
    a.reference = *ref;
    const TimeNs base = ranks[*ref].clock.commonBaseOffset().value_or(0);
    std::vector<std::string> missing;
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (start[i]) // two starts in range differ by what fits; the base may not: saturated
            a.offsets[i] = addSaturating(base, *start[*ref] - *start[i]);
        else
            missing.push_back(rankName(ranks[i]));
    }
    if (!missing.empty())
        a.warnings.push_back(joined(missing) + " have no step named '" + name +
                             "': not aligned (no offset claimed)");
    keepInRange(ranks, a.offsets, a.warnings);
}

std::string micros(TimeNs ns) {
    return formatPreciseDuration(ns);
}

// "up to MAX (median M)" of a spread.
std::string spreadText(const EndSpread& s) {
    return "up to " + micros(s.max.value_or(0)) + " (median " + micros(s.median.value_or(0)) + ")";
}

// Auto, where aligning by the collectives would leave their ends no closer than the common time
// base does, in their largest or in their median spread (`collectives` against `base`): the
// matched kernels cannot all be the same collective (issue 44: unpaired point-to-point kernels
// moved a rank by 332 µs for a median spread of 332 µs either way), so the time base `t` is
// kept, said why.
void keepTimeBase(ClockAlignment t, const EndSpread& base, const EndSpread& collectives,
                  ClockAlignment& a) {
    a = std::move(t);
    a.refusedSpread = collectives.max;
    a.reason = "the common time base: aligning by the matched collectives would not bring their "
               "ends closer (" +
               spreadText(collectives) + " apart, against " + spreadText(base) + " under it)";
    a.warnings.push_back("the matched collectives' ends differ by " + spreadText(base) +
                         " under the common time base (more than the tolerance, " +
                         micros(a.tolerance) + "), and by " + spreadText(collectives) +
                         " when aligned by them: their alignment is refused and the time base "
                         "kept (some matched kernels may not be the same collective on every "
                         "rank)");
}

void autoAlign(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
               ClockAlignment& a) {
    const std::vector<std::string> missing = missingTimeBase(ranks);
    if (match.instances.empty()) {
        if (!missing.empty()) return; // refused by the caller
        timeOffsets(ranks, a);
        a.reason = "the common time base (no collective matched across ranks to confirm it)";
        a.warnings.push_back("no collective kernel matched across ranks: the common time base "
                             "is used unconfirmed");
        return;
    }
    if (missing.empty()) {
        ClockAlignment t = a;
        timeOffsets(ranks, t);
        const EndSpread s = endSpread(ranks, match, t.offsets);
        const bool all = std::all_of(t.offsets.begin(), t.offsets.end(),
                                     [](const auto& o) { return o.has_value(); });
        if (all && s.max && *s.max <= a.tolerance) {
            a = std::move(t);
            a.reason = "the common time base: the matched collectives end within " +
                       micros(*s.max) + " of each other under it (tolerance " +
                       micros(a.tolerance) + ")";
            return;
        }
        ClockAlignment c = a;
        collectiveOffsets(ranks, match, c);
        const EndSpread cs = endSpread(ranks, match, c.offsets);
        if (all && s.max && cs.max && (*cs.max >= *s.max || *cs.median >= *s.median)) {
            keepTimeBase(std::move(t), s, cs, a);
            return;
        }
        a = std::move(c);
        a.reason = !all ? "the collectives: the common time base puts some ranks' times beyond "
                          "+-2^62 ns"
                        : "the collectives: under the common time base their ends differ by up "
                          "to " +
                              (s.max ? micros(*s.max) : std::string("?")) + " (tolerance " +
                              micros(a.tolerance) + ")";
        return;
    }
    collectiveOffsets(ranks, match, a);
    a.reason = "the collectives: " + joined(missing) + " have no common time base";
}

} // namespace

const char* alignMethodName(AlignMethod m) {
    switch (m) {
    case AlignMethod::Auto:
        return "auto";
    case AlignMethod::Time:
        return "time";
    case AlignMethod::Collectives:
        return "collectives";
    case AlignMethod::Step:
        return "step";
    case AlignMethod::Manual:
        return "manual";
    case AlignMethod::None:
        break;
    }
    return "none";
}

std::optional<AlignRequest> parseAlignRequest(std::string_view text, std::string* error) {
    AlignRequest r;
    if (text == "auto")
        r.method = AlignMethod::Auto;
    else if (text == "time")
        r.method = AlignMethod::Time;
    else if (text == "collectives")
        r.method = AlignMethod::Collectives;
    else if (text.substr(0, 5) == "step:" && text.size() > 5) {
        r.method = AlignMethod::Step;
        r.stepName = std::string(text.substr(5));
    } else {
        if (error)
            *error =
                "expects auto, time, collectives or step:NAME, got '" + std::string(text) + "'";
        return std::nullopt;
    }
    return r;
}

EndSpread endSpread(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
                    const std::vector<std::optional<TimeNs>>& offsets) {
    EndSpread s;
    s.residual.assign(ranks.size(), std::nullopt);
    std::vector<TimeNs> spreads;
    for (const MatchedCollective& m : match.instances) {
        std::vector<std::pair<size_t, TimeNs>> ends; // (rank, aligned end)
        for (const CollectiveMember& x : m.members)
            if (offsets[x.rank])
                ends.push_back(
                    {x.rank, ranks[x.rank].collectives[x.collective].end + *offsets[x.rank]});
        if (ends.size() < 2) continue;
        std::vector<TimeNs> values;
        for (const auto& [r, e] : ends) values.push_back(e);
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        spreads.push_back(*hi - *lo);
        const TimeNs mid = median(values);
        for (const auto& [r, e] : ends)
            s.residual[r] = std::max(s.residual[r].value_or(0), e > mid ? e - mid : mid - e);
    }
    if (spreads.empty()) return s;
    s.max = *std::max_element(spreads.begin(), spreads.end());
    s.median = median(spreads);
    return s;
}

ClockAlignment alignClocks(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
                           const AlignRequest& request) {
    ClockAlignment a;
    a.requested = request.method;
    a.tolerance = request.tolerance;
    a.offsets.assign(ranks.size(), std::nullopt);
    a.uncertainty.assign(ranks.size(), std::nullopt);
    a.matched = match.instances.size();
    switch (request.method) {
    case AlignMethod::Time:
        timeOffsets(ranks, a);
        a.reason = "the common time base, as asked";
        break;
    case AlignMethod::Collectives:
        collectiveOffsets(ranks, match, a);
        a.reason = "the matched collectives' ends, as asked";
        break;
    case AlignMethod::Step:
        stepOffsets(ranks, request.stepName, a);
        a.reason = "the starts of step '" + request.stepName + "', as asked";
        break;
    case AlignMethod::Manual:
        for (size_t i = 0; i < ranks.size() && i < request.offsets.size(); ++i)
            a.offsets[i] = request.offsets[i];
        if (std::any_of(a.offsets.begin(), a.offsets.end(), [](auto o) { return o.has_value(); }))
            a.method = AlignMethod::Manual;
        keepInRange(ranks, a.offsets, a.warnings);
        a.reason = "offsets set by hand";
        break;
    case AlignMethod::Auto:
    case AlignMethod::None:
        autoAlign(ranks, match, a);
        break;
    }
    const bool dropped =
        a.aligned() && !ranks.empty() &&
        std::none_of(a.offsets.begin(), a.offsets.end(), [](auto o) { return o.has_value(); });
    if (dropped) a.method = AlignMethod::None; // every offset out of range (said)
    if (!a.aligned()) {
        a.offsets.assign(ranks.size(), std::nullopt);
        a.uncertainty.assign(ranks.size(), std::nullopt);
        a.reason = dropped ? "every offset would put its rank's times beyond +-2^62 ns"
                   : request.method == AlignMethod::Step
                       ? "no two ranks have a step named '" + request.stepName + "'"
                   : request.method == AlignMethod::Manual ? "no offset was given"
                   : request.method == AlignMethod::Collectives
                       ? "no collective kernel matched across ranks"
                       : "no common time base and no collective kernel matched across ranks";
        a.warnings.push_back("not aligned: " + a.reason + " (no offset claimed)");
        return a;
    }
    const EndSpread s = endSpread(ranks, match, a.offsets);
    a.spread = s.max;
    a.medianSpread = s.median;
    a.uncertainty = s.residual;
    if (a.method != AlignMethod::Collectives && !a.refusedSpread && s.max && *s.max > a.tolerance)
        a.warnings.push_back("under this alignment the matched collectives' ends differ by up "
                             "to " +
                             micros(*s.max) + " (more than the tolerance, " + micros(a.tolerance) +
                             "): --align collectives lines them up");
    if (a.method == AlignMethod::Collectives && s.max && *s.max > a.tolerance)
        a.warnings.push_back("aligned by the collectives, their ends still differ by up to " +
                             micros(*s.max) + " (more than the tolerance, " + micros(a.tolerance) +
                             "): some matched kernels may not be the same collective on every "
                             "rank");
    return a;
}

} // namespace strata
