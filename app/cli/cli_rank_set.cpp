#include "cli_rank_set.h"

#include "analysis/trace_analysis.h"
#include "io/trace_set_loader.h"
#include "util/terminal_text.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace strata::cli {

bool forEachTrace(const char* command, const std::vector<std::string>& files,
                  const std::function<void(size_t, const std::shared_ptr<const Trace>&)>& use) {
    std::vector<std::string> errors(files.size());
    loadTraceSet(files, [&](size_t i, LoadResult& r) {
        if (!r.ok()) {
            errors[i] = r.error ? r.error->toString() : files[i] + ": cannot load";
            return;
        }
        use(i, r.trace);
        r.trace.reset();
    });
    bool ok = true;
    for (const std::string& e : errors) {
        if (e.empty()) continue;
        std::fprintf(stderr, "strata-cli %s: %s\n", command, terminalSafe(e).c_str());
        ok = false;
    }
    return ok;
}

std::optional<std::vector<RankDigest>> digestFiles(const char* command,
                                                   const std::vector<std::string>& files,
                                                   const AnalysisSettings& settings) {
    std::vector<RankDigest> digests(files.size());
    const bool ok =
        forEachTrace(command, files, [&](size_t i, const std::shared_ptr<const Trace>& t) {
            const TraceAnalysis analysis(t, settings);
            digests[i] = digestTrace(analysis, files[i], int64_t(i));
        });
    if (!ok) return std::nullopt;
    return digests;
}

bool forEachRankAnalysis(
    const char* command, const std::vector<std::string>& files, const AnalysisArgs& args,
    const std::function<void(size_t, const RankIdentity&, const TraceAnalysis&)>& use) {
    return forEachTrace(command, files, [&](size_t i, const std::shared_ptr<const Trace>& t) {
        const TraceAnalysis analysis(t, args.settings, args.range(*t));
        use(i, rankIdentity(*t, files[i], int64_t(i)), analysis);
    });
}

std::vector<size_t> byRank(const std::vector<RankIdentity>& ranks) {
    return rankOrder(ranks);
}

std::vector<size_t> byRank(const std::vector<RankDigest>& digests) {
    std::vector<RankIdentity> ids;
    for (const RankDigest& d : digests) ids.push_back(d.identity);
    return byRank(ids);
}

} // namespace strata::cli
