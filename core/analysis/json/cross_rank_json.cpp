#include "analysis/json/cross_rank_json.h"

namespace strata {

using nlohmann::json;

namespace {

double us(TimeNs ns) {
    return double(ns) / 1000.0;
}

json usOrNull(const std::optional<TimeNs>& ns) {
    return ns ? json(us(*ns)) : json();
}

json rankSteps(const CrossRankStep& s, const std::vector<CrossRankRow>& rows) {
    json out = json::array();
    for (const RankStep& r : s.ranks) {
        json causes = json::object();
        for (int c = 0; c < kGapCauseCount; ++c)
            causes[gapCauseName(GapCause(c))] = us(r.idleByCause[size_t(c)]);
        out.push_back({{"rank", rows[r.rank].rank},
                       {"start_us", usOrNull(r.start)},
                       {"dur_us", us(r.duration)},
                       {"busy_us", us(r.busy)},
                       {"idle_us", us(r.idle)},
                       {"idle_by_cause_us", causes},
                       {"kernels", r.kernels},
                       {"caused_wait_us", us(r.causedWait)},
                       {"late_start_us", usOrNull(r.lateStart)}});
    }
    return out;
}

json alignmentJson(const CrossRankReport& r) {
    const ClockAlignment& a = r.alignment;
    return {{"method", alignMethodName(a.method)},
            {"requested", alignMethodName(a.requested)},
            {"step", a.method == AlignMethod::Step ? json(a.stepName) : json()},
            {"reference_rank", a.aligned() && a.reference < r.ranks.size()
                                   ? json(r.ranks[a.reference].rank)
                                   : json()},
            {"reason", a.reason},
            {"matched_collectives", a.matched},
            {"spread_us", usOrNull(a.spread)},
            {"median_spread_us", usOrNull(a.medianSpread)},
            {"tolerance_us", us(a.tolerance)},
            {"origin_ns", r.origin},
            {"warnings", a.warnings}};
}

} // namespace

json crossRankToJson(const CrossRankReport& r) {
    json j;
    json ranks = json::array();
    for (const CrossRankRow& row : r.ranks)
        ranks.push_back({{"rank", row.rank},
                         {"file", row.file},
                         {"host", row.host},
                         {"offset_us", usOrNull(row.offset)},
                         {"uncertainty_us", usOrNull(row.uncertainty)},
                         {"kernels", row.kernels},
                         {"busy_us", us(row.busy)},
                         {"idle_us", us(row.idle)},
                         {"collectives", row.collectives},
                         {"steps", row.steps}});
    j["ranks"] = ranks;
    j["alignment"] = alignmentJson(r);
    json steps = json::array();
    for (const CrossRankStep& s : r.steps)
        steps.push_back(
            {{"step", s.name},
             {"straggler_rank", s.straggler ? json(r.ranks[*s.straggler].rank) : json()},
             {"delay_us", us(s.delay)},
             {"straggler_by", s.byCollectives ? "collectives" : "step_time"},
             {"median_dur_us", us(s.medianDuration)},
             {"collectives", s.collectives},
             {"last_to_start_rank", s.lastToStart ? json(r.ranks[*s.lastToStart].rank) : json()},
             {"started_late_us", us(s.startedLate)},
             {"ranks", rankSteps(s, r.ranks)}});
    j["steps"] = steps;
    json cs = json::array();
    for (const CrossRankCollective& c : r.collectives) {
        json labels = json::array(), arrival = json::array(), end = json::array(),
             wait = json::array();
        for (size_t i = 0; i < c.ranks.size(); ++i) {
            labels.push_back(r.ranks[c.ranks[i]].rank);
            arrival.push_back(us(c.arrival[i]));
            end.push_back(us(c.end[i]));
            wait.push_back(us(c.wait[i]));
        }
        cs.push_back({{"name", c.name},
                      {"op", c.op},
                      {"group", c.group},
                      {"index", c.index},
                      {"step", c.step.empty() ? json() : json(c.step)},
                      {"ranks", labels},
                      {"ranks_arrival_us", arrival},
                      {"ranks_end_us", end},
                      {"wait_us", wait},
                      {"late_rank", r.ranks[c.lateRank].rank},
                      {"late_by_us", us(c.lateBy)},
                      {"max_wait_us", us(c.maxWait)}});
    }
    j["collectives"] = cs;
    j["warnings"] = r.warnings;
    return j;
}

json crossRankToJson(const CrossRankReport& report, const std::vector<DigestOutcome>& failed) {
    json j = crossRankToJson(report);
    json errors = json::array();
    for (const DigestOutcome& o : failed) errors.push_back({{"file", o.file}, {"error", o.error}});
    j["errors"] = std::move(errors);
    return j;
}

} // namespace strata
