#include "cli_rank_set.h"

#include "analysis/rank_digest_json.h"
#include "analysis/trace_analysis.h"
#include "io/trace_set_loader.h"
#include "util/terminal_text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

namespace {

// The text of a rank digest `strata-cli digest` wrote (a small JSON file with the format's
// version key), or nullopt for anything else (a trace).
std::optional<std::string> digestText(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec || size > (16u << 20)) return std::nullopt;
    std::ifstream f(path, std::ios::binary);
    std::string text(size, '\0');
    if (!f.read(text.data(), std::streamsize(size))) return std::nullopt;
    if (text.find("\"strata_rank_digest\"") == std::string::npos) return std::nullopt;
    return text;
}

} // namespace

std::optional<std::vector<RankDigest>> digestFiles(const char* command,
                                                   const std::vector<std::string>& files,
                                                   const AnalysisSettings& settings) {
    std::vector<RankDigest> digests(files.size());
    std::vector<std::string> traces;
    std::vector<size_t> which;
    bool ok = true;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::optional<std::string> text = digestText(files[i]);
        if (!text) {
            traces.push_back(files[i]);
            which.push_back(i);
            continue;
        }
        std::string error;
        std::optional<RankDigest> d = rankDigestFromText(*text, &error);
        if (!d) {
            std::fprintf(stderr, "strata-cli %s: %s: not a digest this build reads: %s\n", command,
                         terminalSafe(files[i]).c_str(), terminalSafe(error).c_str());
            ok = false;
            continue;
        }
        if (d->gapThreshold != settings.gapThreshold || d->stepPrefix != settings.stepPrefix)
            std::fprintf(
                stderr,
                "strata-cli %s: warning: %s was digested with a gap threshold of %lld ns "
                "and step name '%s': its figures follow those, not the options given\n",
                command, terminalSafe(files[i]).c_str(), static_cast<long long>(d->gapThreshold),
                terminalSafe(d->stepPrefix.empty() ? "ProfilerStep#" : d->stepPrefix).c_str());
        digests[i] = std::move(*d);
    }
    ok &= forEachTrace(command, traces, [&](size_t k, const std::shared_ptr<const Trace>& t) {
        const TraceAnalysis analysis(t, settings);
        digests[which[k]] = digestTrace(analysis, traces[k], int64_t(which[k]));
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

void SetFiles::declare(CommandLine& line) {
    line.option("--file-list", text(&list_)).files(&files_, 0, SIZE_MAX, "FILE...");
}

std::optional<int> SetFiles::resolve(const CommandLine& line) {
    if (!list_.empty()) {
        std::ifstream in(list_);
        if (!in) return line.usageError("cannot read the file list " + list_);
        const std::filesystem::path folder = std::filesystem::path(list_).parent_path();
        for (std::string entry; std::getline(in, entry);) {
            while (!entry.empty() &&
                   (entry.back() == '\r' || entry.back() == ' ' || entry.back() == '\t'))
                entry.pop_back();
            const size_t first = entry.find_first_not_of(" \t");
            if (first == std::string::npos || entry[first] == '#') continue;
            const std::filesystem::path p(entry.substr(first));
            files_.push_back(p.is_absolute() ? p.string() : (folder / p).string());
        }
    }
    if (files_.empty()) return line.usageError("no FILE given (as arguments or --file-list)");
    return std::nullopt;
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
