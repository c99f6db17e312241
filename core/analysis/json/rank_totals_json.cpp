#include "analysis/json/rank_totals_json.h"

#include "analysis/json/gap_causes_json.h"
#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

namespace {

// The rows' indices in rank order.
template <typename Row> std::vector<size_t> byRank(const std::vector<Row>& rows) {
    std::vector<RankIdentity> ids;
    for (const Row& r : rows) ids.push_back(r.id);
    return rankOrder(ids);
}

nlohmann::json wholeStatsJson(const StatsTotals& t, TimeNs span) {
    nlohmann::json cats = nlohmann::json::array();
    for (const CategoryRow& c : t.categories)
        cats.push_back({{"category", kernelCategoryName(c.category)},
                        {"count", c.count},
                        {"time_us", us(double(c.time))},
                        {"share", c.share}});
    nlohmann::json ks = nlohmann::json::array();
    for (const KernelTotalsRow& k : t.kernels)
        ks.push_back({{"name", k.name},
                      {"category", kernelCategoryName(k.category)},
                      {"count", k.count},
                      {"total_us", us(double(k.total))},
                      {"mean_us", us(k.mean())},
                      {"min_us", us(double(k.min))},
                      {"max_us", us(double(k.max))},
                      {"share", k.share},
                      {"ranks", k.ranks}});
    return {{"kernels", t.kernelCount},
            {"kernel_time_us", us(double(t.kernelTime))},
            {"busy_us", us(double(t.busy))},
            {"idle_us", us(double(t.idle))},
            {"busy_share", busyShare(t.busy, span)},
            {"categories", cats},
            {"kernels_by_name", ks}};
}

} // namespace

nlohmann::json gapStepsOfRankToJson(const GapCauses& g) {
    nlohmann::json steps = nlohmann::json::array();
    for (const StepGaps& s : g.steps)
        steps.push_back({{"name", s.step.name},
                         {"device", s.device},
                         {"dur_us", us(double(s.step.end - s.step.start))},
                         {"idle_us", us(double(s.idle))},
                         {"by_cause", gapCauseTotalsToJson(s.byCause, std::nullopt)}});
    return steps;
}

nlohmann::json gapRanksToJson(const std::vector<GapRankRow>& rows, const GapTotals& whole,
                              double thresholdUs) {
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t i : byRank(rows))
        ranks.push_back(
            {{"rank", rows[i].id.rank},
             {"file", rows[i].file},
             {"host", rows[i].id.host},
             {"warnings", rows[i].warnings},
             {"span_us", us(double(rows[i].totals.span))},
             {"by_cause", gapCauseTotalsToJson(rows[i].totals.byCause, rows[i].totals.span)},
             {"steps", rows[i].steps}});
    return {{"threshold_us", thresholdUs},
            {"ranks", ranks},
            {"whole",
             {{"span_us", us(double(whole.span))},
              {"by_cause", gapCauseTotalsToJson(whole.byCause, whole.span)}}}};
}

nlohmann::json statsRanksToJson(const std::vector<StatsRankRow>& rows, const StatsTotals& whole,
                                TimeNs span) {
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t i : byRank(rows)) {
        const StatsRankRow& r = rows[i];
        ranks.push_back({{"rank", r.id.rank},
                         {"file", r.file},
                         {"host", r.id.host},
                         {"warnings", r.warnings},
                         {"kernels", r.kernels},
                         {"kernel_time_us", us(double(r.kernelTime))},
                         {"busy_us", us(double(r.busy))},
                         {"idle_us", us(double(r.idle))},
                         {"busy_share", busyShare(r.busy, r.span)}});
    }
    return {{"ranks", ranks}, {"whole", wholeStatsJson(whole, span)}};
}

nlohmann::json summaryRanksToJson(const std::vector<SummaryRankRow>& rows,
                                  const SummaryTotals& whole) {
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t i : byRank(rows))
        ranks.push_back({{"rank", rows[i].id.rank},
                         {"file", rows[i].file},
                         {"host", rows[i].id.host},
                         {"summary", rows[i].summary}});
    return {{"ranks", ranks}, {"whole", summaryTotalsToJson(whole)}};
}

nlohmann::json summaryTotalsToJson(const SummaryTotals& t) {
    return {{"kernels", t.kernels},        {"memcpy", t.memcpys},
            {"memset", t.memsets},         {"kernel_time_us", toMicros(t.kernelTime)},
            {"busy_us", toMicros(t.busy)}, {"gaps_over_threshold", t.gapsOverThreshold},
            {"idle_us", toMicros(t.idle)}};
}

} // namespace strata
