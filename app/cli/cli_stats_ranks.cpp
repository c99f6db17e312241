// strata-cli stats FILE FILE...: per rank its kernels, kernel time and GPU busy / idle, then the
// whole: time by category and the kernels by name over every rank (cli_rank_rows.h).
#include "cli_rank_rows.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/ranks/rank_totals.h"
#include "model/names/time_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>

namespace strata::cli {
namespace {

double us(double ns) {
    return ns / 1000.0;
}

struct RankStats {
    RankIdentity id;
    uint64_t kernels = 0;
    TimeNs kernelTime = 0, busy = 0, idle = 0, span = 0;
    std::vector<std::string> warnings;
};

double busyShare(TimeNs busy, TimeNs span) {
    return span > 0 ? double(busy) / double(span) : 0.0;
}

nlohmann::json wholeJson(const StatsTotals& t, TimeNs span) {
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
    std::vector<RankStats> rows(files.size());
    StatsTotals whole;
    std::mutex wholeMutex;
    const bool ok = forEachRankAnalysis(
        "stats", files, args, [&](size_t i, const RankIdentity& id, const TraceAnalysis& a) {
            const OpStats& st = a.opStats(false);
            const GapCauses& g = a.gapCauses();
            StatsTotals mine;
            mine.add(st, g);
            RankStats& r = rows[i];
            r = {id, mine.kernelCount, mine.kernelTime, mine.busy, mine.idle, 0, g.warnings};
            for (const DeviceGapStats& d : g.devices) r.span += d.lastEnd - d.firstStart;
            const std::lock_guard lock(wholeMutex);
            whole.add(st, g);
        });
    if (!ok) return 1;
    whole.finish();
    std::vector<RankIdentity> ids;
    TimeNs span = 0;
    for (const RankStats& r : rows) ids.push_back(r.id), span += r.span;
    if (json) {
        nlohmann::json ranks = nlohmann::json::array();
        for (size_t i : byRank(ids)) {
            const RankStats& r = rows[i];
            ranks.push_back({{"rank", r.id.rank},
                             {"file", files[i]},
                             {"host", r.id.host},
                             {"warnings", r.warnings},
                             {"kernels", r.kernels},
                             {"kernel_time_us", us(double(r.kernelTime))},
                             {"busy_us", us(double(r.busy))},
                             {"idle_us", us(double(r.idle))},
                             {"busy_share", busyShare(r.busy, r.span)}});
        }
        const nlohmann::json j = {{"ranks", ranks}, {"whole", wholeJson(whole, span)}};
        std::printf("%s\n",
                    j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
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
        const RankStats& r = rows[i];
        printRow(std::to_string(r.id.rank), r.kernels, r.kernelTime, r.busy, r.idle, r.span,
                 files[i]);
    }
    printRow("all", whole.kernelCount, whole.kernelTime, whole.busy, whole.idle, span, "");
    printWhole(whole, top);
    return 0;
}

} // namespace strata::cli
