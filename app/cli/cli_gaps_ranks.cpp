// strata-cli gaps FILE FILE...: per rank the idle gaps over the threshold by cause and its steps'
// idle, then the whole (cli_rank_rows.h; the JSON: core/analysis/json/rank_totals_json.h).
#include "cli_rank_rows.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/json/rank_totals_json.h"
#include "analysis/ranks/rank_totals.h"
#include "model/names/time_text.h"

#include <cmath>
#include <cstdio>

namespace strata::cli {
namespace {

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

std::vector<RankIdentity> identities(const std::vector<GapRankRow>& rows) {
    std::vector<RankIdentity> ids;
    for (const GapRankRow& r : rows) ids.push_back(r.id);
    return ids;
}

void printTable(const std::vector<std::string>& files, const std::vector<GapRankRow>& rows,
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
    std::vector<GapRankRow> rows(files.size());
    const bool ok = forEachRankAnalysis(
        "gaps", files, args, [&](size_t i, const RankIdentity& id, const TraceAnalysis& a) {
            const GapCauses& g = a.gapCauses();
            rows[i].id = id;
            rows[i].file = files[i];
            rows[i].totals.add(g);
            rows[i].warnings = g.warnings;
            if (json) rows[i].steps = gapStepsOfRankToJson(g);
        });
    if (!ok) return 1;
    GapTotals whole;
    for (const GapRankRow& r : rows) whole += r.totals;
    if (json)
        printJson(gapRanksToJson(rows, whole, args.thresholdUs()));
    else
        printTable(files, rows, whole, args.thresholdUs());
    return 0;
}

} // namespace strata::cli
