// strata-cli stats FILE FILE...: per rank its kernels, kernel time and GPU busy / idle, then the
// whole: time by category and the kernels by name over every rank (cli_rank_rows.h; the JSON:
// core/analysis/json/rank_totals_json.h).
#include "cli_rank_rows.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/json/rank_totals_json.h"
#include "analysis/ranks/rank_totals.h"
#include "model/names/time_text.h"

#include <cstdio>
#include <mutex>

namespace strata::cli {
namespace {

double us(double ns) {
    return ns / 1000.0;
}

void printRow(const std::string& label, uint64_t kernels, TimeNs kernelTime, TimeNs busy,
              TimeNs idle, TimeNs span, const std::string& file) {
    std::printf("%6s %8llu %16s %16s %16s %6.1f%%  %s\n", label.c_str(),
                static_cast<unsigned long long>(kernels), formatPreciseDuration(kernelTime).c_str(),
                formatPreciseDuration(busy).c_str(), formatPreciseDuration(idle).c_str(),
                100.0 * busyShare(busy, span), terminalSafe(file).c_str());
}

void printWhole(const StatsTotals& t, size_t top) {
    std::printf("\n%-16s %8s %16s %7s\n", "category", "count", "time", "share");
    for (const CategoryRow& c : t.categories)
        if (c.count)
            std::printf("%-16s %8llu %16s %6.1f%%\n", kernelCategoryName(c.category),
                        static_cast<unsigned long long>(c.count),
                        formatPreciseDuration(c.time).c_str(), 100.0 * c.share);
    std::printf("\n%12s %8s %11s %11s %11s %6s %5s %11s  %s\n", "total_us", "count", "mean_us",
                "min_us", "max_us", "share", "ranks", "category", "kernel (all ranks)");
    for (size_t i = 0; i < t.kernels.size() && i < top; ++i) {
        const KernelTotalsRow& k = t.kernels[i];
        const std::string name = k.name.size() > 70 ? k.name.substr(0, 67) + "..." : k.name;
        std::printf("%12.3f %8llu %11.3f %11.3f %11.3f %5.1f%% %5zu %11s  %s\n",
                    us(double(k.total)), static_cast<unsigned long long>(k.count), us(k.mean()),
                    us(double(k.min)), us(double(k.max)), 100.0 * k.share, k.ranks,
                    kernelCategoryName(k.category), terminalSafe(name).c_str());
    }
}

} // namespace

int statsOfRanks(const std::vector<std::string>& files, const AnalysisArgs& args, bool json,
                 size_t top) {
    std::vector<StatsRankRow> rows(files.size());
    StatsTotals whole;
    std::mutex wholeMutex;
    const bool ok = forEachRankAnalysis(
        "stats", files, args, [&](size_t i, const RankIdentity& id, const TraceAnalysis& a) {
            const OpStats& st = a.opStats(false);
            const GapCauses& g = a.gapCauses();
            StatsTotals mine;
            mine.add(st, g);
            StatsRankRow& r = rows[i];
            r = {id,        files[i], mine.kernelCount, mine.kernelTime, mine.busy,
                 mine.idle, 0,        g.warnings};
            for (const DeviceGapStats& d : g.devices) r.span += d.lastEnd - d.firstStart;
            const std::lock_guard lock(wholeMutex);
            whole.add(st, g);
        });
    if (!ok) return 1;
    whole.finish();
    std::vector<RankIdentity> ids;
    TimeNs span = 0;
    for (const StatsRankRow& r : rows) ids.push_back(r.id), span += r.span;
    if (json) {
        printJson(statsRanksToJson(rows, whole, span));
        return 0;
    }
    std::printf("Statistics of %zu ranks\n", files.size());
    for (size_t i : byRank(ids))
        for (const std::string& w : rows[i].warnings)
            std::printf("warning: rank %lld: %s\n", static_cast<long long>(ids[i].rank),
                        terminalSafe(w).c_str());
    std::printf("\n%6s %8s %16s %16s %16s %7s  %s\n", "rank", "kernels", "kernel time", "busy",
                "idle", "busy%", "file");
    for (size_t i : byRank(ids)) {
        const StatsRankRow& r = rows[i];
        printRow(std::to_string(r.id.rank), r.kernels, r.kernelTime, r.busy, r.idle, r.span,
                 files[i]);
    }
    printRow("all", whole.kernelCount, whole.kernelTime, whole.busy, whole.idle, span, "");
    printWhole(whole, top);
    return 0;
}

} // namespace strata::cli
