// strata-cli gaps FILE FILE...: per rank the idle gaps over the threshold by cause and its steps'
// idle, then the whole (cli_rank_rows.h).
#include "cli_rank_rows.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/ranks/rank_totals.h"
#include "model/names/time_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <optional>

namespace strata::cli {
namespace {

double us(TimeNs ns) {
    return double(ns) / 1000.0;
}

// Per cause its count and idle (as strata-cli gaps --json), with its share of `span` when given.
nlohmann::json causesJson(const std::array<CauseTotals, kGapCauseCount>& byCause,
                          std::optional<TimeNs> span) {
    nlohmann::json by = nlohmann::json::object();
    for (size_t c = 0; c < byCause.size(); ++c) {
        nlohmann::json o = {{"count", byCause[c].count}, {"idle_us", us(byCause[c].idle)}};
        if (span) o["share_of_span"] = *span > 0 ? double(byCause[c].idle) / double(*span) : 0.0;
        by[gapCauseName(GapCause(c))] = o;
    }
    return by;
}

nlohmann::json stepsJson(const GapCauses& g) {
    nlohmann::json steps = nlohmann::json::array();
    for (const StepGaps& s : g.steps)
        steps.push_back({{"name", s.step.name},
                         {"device", s.device},
                         {"dur_us", us(s.step.end - s.step.start)},
                         {"idle_us", us(s.idle)},
                         {"by_cause", causesJson(s.byCause, std::nullopt)}});
    return steps;
}

struct RankGaps {
    RankIdentity id;
    GapTotals totals;
    std::vector<std::string> warnings;
    nlohmann::json steps;
};

void printRow(const std::string& label, const GapTotals& t, const std::string& file) {
    std::printf("%6s", label.c_str());
    TimeNs idle = 0;
    for (const CauseTotals& c : t.byCause) {
        std::printf(" %6llu %14s", static_cast<unsigned long long>(c.count),
                    formatPreciseDuration(c.idle).c_str());
        idle += c.idle;
    }
    std::printf(" %6.1f%%  %s\n", t.span > 0 ? 100.0 * double(idle) / double(t.span) : 0.0,
                terminalSafe(file).c_str());
}

std::vector<RankIdentity> identities(const std::vector<RankGaps>& rows) {
    std::vector<RankIdentity> ids;
    for (const RankGaps& r : rows) ids.push_back(r.id);
    return ids;
}

void printTable(const std::vector<std::string>& files, const std::vector<RankGaps>& rows,
                const GapTotals& whole, double thresholdUs) {
    std::printf("%zu ranks: GPU idle gaps over %s by cause (count, idle)\n", files.size(),
                formatPreciseDuration(TimeNs(std::llround(thresholdUs * 1000))).c_str());
    const std::vector<size_t> order = byRank(identities(rows));
    for (size_t i : order)
        for (const std::string& w : rows[i].warnings)
            std::printf("warning: rank %lld: %s\n", static_cast<long long>(rows[i].id.rank),
                        terminalSafe(w).c_str());
    std::printf("\n%6s", "rank");
    for (int c = 0; c < kGapCauseCount; ++c) std::printf(" %21s", gapCauseName(GapCause(c)));
    std::printf(" %7s  %s\n", "idle%", "file");
    for (size_t i : order) printRow(std::to_string(rows[i].id.rank), rows[i].totals, files[i]);
    printRow("all", whole, "");
    std::printf("(idle%%: the gaps over the threshold, of the devices' spans from first op to last "
                "end; per step: strata-cli gaps --json, or gaps FILE for one rank)\n");
}

} // namespace

int gapsOfRanks(const std::vector<std::string>& files, const AnalysisArgs& args, bool json) {
    std::vector<RankGaps> rows(files.size());
    const bool ok = forEachRankAnalysis(
        "gaps", files, args, [&](size_t i, const RankIdentity& id, const TraceAnalysis& a) {
            const GapCauses& g = a.gapCauses();
            rows[i].id = id;
            rows[i].totals.add(g);
            rows[i].warnings = g.warnings;
            if (json) rows[i].steps = stepsJson(g);
        });
    if (!ok) return 1;
    GapTotals whole;
    for (const RankGaps& r : rows) whole += r.totals;
    if (!json) {
        printTable(files, rows, whole, args.thresholdUs());
        return 0;
    }
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t i : byRank(identities(rows)))
        ranks.push_back({{"rank", rows[i].id.rank},
                         {"file", files[i]},
                         {"host", rows[i].id.host},
                         {"warnings", rows[i].warnings},
                         {"span_us", us(rows[i].totals.span)},
                         {"by_cause", causesJson(rows[i].totals.byCause, rows[i].totals.span)},
                         {"steps", rows[i].steps}});
    const nlohmann::json j = {
        {"threshold_us", args.thresholdUs()},
        {"ranks", ranks},
        {"whole",
         {{"span_us", us(whole.span)}, {"by_cause", causesJson(whole.byCause, whole.span)}}}};
    std::printf("%s\n", j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return 0;
}

} // namespace strata::cli
