#include "cli_rank_set.h"

#include "analysis/trace_analysis.h"
#include "io/set/digest_set.h"
#include "io/set/trace_set_loader.h"
#include "util/input_file.h"
#include "util/terminal_text.h"

#include <cstdio>
#include <filesystem>

namespace strata::cli {

namespace {

// Loads `files` (loadTraceSet, through the cache under --cache) and hands each trace to `use`,
// which returns why it could not be used ("" when it was); the errors in the order of `files`, a
// load's own for a file that did not load. A load that throws (out of memory) is every file not
// yet used's error; never throws.
std::vector<std::string>
loadEach(const std::vector<std::string>& files, const TraceSetOptions& options,
         const std::function<std::string(size_t, const std::shared_ptr<const Trace>&)>& use) {
    std::vector<std::string> errors(files.size());
    std::vector<char> done(files.size(), 0); // written by several threads: not vector<bool>
    try {
        loadTraceSet(
            files,
            [&](size_t i, LoadResult& r) {
                done[i] = 1;
                if (!r.ok()) {
                    errors[i] = r.error ? r.error->toString() : files[i] + ": cannot load";
                    return;
                }
                errors[i] = use(i, r.trace);
                r.trace.reset();
            },
            forCli(options));
    } catch (const std::exception& e) {
        for (size_t i = 0; i < files.size(); ++i)
            if (!done[i]) errors[i] = files[i] + ": cannot load: " + e.what();
    }
    return errors;
}

constexpr uint64_t kMaxListBytes = uint64_t(1) << 30; // a path per line: millions of them

} // namespace

bool forEachTrace(const char* command, const std::vector<std::string>& files,
                  const std::function<void(size_t, const std::shared_ptr<const Trace>&)>& use,
                  const TraceSetOptions& options) {
    bool ok = true;
    for (const std::string& e :
         loadEach(files, options, [&](size_t i, const std::shared_ptr<const Trace>&t) {
             use(i, t);
             return std::string();
         })) {
        if (e.empty()) continue;
        std::fprintf(stderr, "strata-cli %s: %s\n", command, terminalSafe(e).c_str());
        ok = false;
    }
    return ok;
}

std::vector<DigestOutcome> digestEach(const char* command, const std::vector<std::string>& files,
                                      const AnalysisSettings& settings,
                                      const TraceSetOptions& options) {
    DigestSetOptions set;
    set.load = forCli(options);
    std::vector<DigestOutcome> outcomes;
    for (SetDigest& d : digestSet(files, settings, set)) {
        if (!d.warning.empty())
            std::fprintf(stderr, "strata-cli %s: warning: %s\n", command,
                         terminalSafe(d.warning).c_str());
        outcomes.push_back(std::move(d.outcome));
    }
    return outcomes;
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
        std::string text, why;
        if (!readRegularFile(list_, &text, &why, kMaxListBytes)) // never blocks
            return line.usageError("cannot read the file list " + list_ + ": " + why);
        std::vector<std::string> warnings;
        for (std::string& f : fileListPaths(text, list_, &warnings)) files_.push_back(std::move(f));
        for (const std::string& w : warnings)
            std::fprintf(stderr, "strata-cli %s: warning: %s\n", command_, terminalSafe(w).c_str());
    }
    if (files_.empty()) return line.usageError("no FILE given (as arguments or --file-list)");
    return std::nullopt;
}

std::vector<std::string> fileListPaths(std::string_view text, const std::string& list,
                                       std::vector<std::string>* warnings) {
    const std::filesystem::path folder = std::filesystem::path(list).parent_path();
    auto resolved = [&](std::string_view p) {
        const std::filesystem::path path{std::string(p)};
        return path.is_absolute() ? path : folder / path;
    };
    auto exists = [&](std::string_view p) {
        std::error_code ec;
        return !p.empty() && std::filesystem::exists(resolved(p), ec);
    };
    std::vector<std::string> out;
    size_t number = 0;
    for (size_t at = 0; at < text.size();) {
        const size_t lf = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, lf - at);
        at = lf + 1;
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string where = list + ":" + std::to_string(number) + ": ";
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || line.front() == '#') {
            if (exists(line))
                warnings->push_back(where + "'" + std::string(line) + "' is skipped as " +
                                    (line.front() == '#' ? "a comment" : "a blank line") +
                                    ", though a file of that name exists (write ./" +
                                    std::string(line) + " to name it)");
            continue;
        }
        const std::string_view trimmed =
            line.substr(first, line.find_last_not_of(" \t") + 1 - first);
        if (trimmed.size() != line.size() && !exists(line) && exists(trimmed))
            warnings->push_back(where + "'" + std::string(line) + "' does not exist, '" +
                                std::string(trimmed) +
                                "' does: a line is a path exactly as written, blanks included "
                                "(remove them to name it)");
        else if (trimmed.front() == '#' && !exists(line))
            warnings->push_back(where + "'" + std::string(line) +
                                "' is taken as a path, which does not exist: a comment starts "
                                "with '#' as the line's first character");
        out.push_back(resolved(line).string());
    }
    return out;
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
