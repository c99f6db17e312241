#include "cli_rank_set.h"

#include "analysis/ranks/rank_digest_json.h"
#include "analysis/trace_analysis.h"
#include "io/set/trace_set_loader.h"
#include "util/input_file.h"
#include "util/parallel_for.h"
#include "util/terminal_text.h"

#include <cstdio>
#include <filesystem>

namespace strata::cli {

namespace {

// Loads `files` (loadTraceSet) and hands each trace to `use`, which returns why it could not be
// used ("" when it was); the errors in the order of `files`, a load's own for a file that did not
// load. A load that throws (out of memory) is every file not yet used's error; never throws.
std::vector<std::string>
loadEach(const std::vector<std::string>& files, const TraceSetOptions& options,
         const std::function<std::string(size_t, const std::shared_ptr<const Trace>&)>& use) {
    std::vector<std::string> errors(files.size());
    std::vector<bool> done(files.size(), false);
    try {
        loadTraceSet(
            files,
            [&](size_t i, LoadResult& r) {
                done[i] = true;
                if (!r.ok()) {
                    errors[i] = r.error ? r.error->toString() : files[i] + ": cannot load";
                    return;
                }
                errors[i] = use(i, r.trace);
                r.trace.reset();
            },
            options);
    } catch (const std::exception& e) {
        for (size_t i = 0; i < files.size(); ++i)
            if (!done[i]) errors[i] = files[i] + ": cannot load: " + e.what();
    }
    return errors;
}

constexpr uint64_t kMaxListBytes = uint64_t(1) << 30; // a path per line: millions of them

DigestOutcome failed(std::string error, std::string file) {
    DigestOutcome o;
    o.error = std::move(error);
    o.file = std::move(file);
    return o;
}

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
    std::vector<DigestOutcome> outcomes(files.size());
    std::vector<std::string> traces;
    std::vector<size_t> which;
    // The digests among the files read on both cores (a reduce reads thousands).
    std::vector<std::optional<DigestOutcome>> digests(files.size());
    parallelFor(files.size(), options.threads != 1 && files.size() > 16,
                [&](size_t i) { digests[i] = readDigestFile(files[i]); });
    for (size_t i = 0; i < files.size(); ++i) {
        std::optional<DigestOutcome>& read = digests[i];
        if (!read) {
            traces.push_back(files[i]);
            which.push_back(i);
            continue;
        }
        outcomes[i] = std::move(*read);
        if (!outcomes[i].digest && outcomes[i].file.empty()) outcomes[i].file = files[i];
        const std::optional<RankDigest>& d = outcomes[i].digest;
        if (d && (d->gapThreshold != settings.gapThreshold || d->stepPrefix != settings.stepPrefix))
            std::fprintf(
                stderr,
                "strata-cli %s: warning: %s was digested with a gap threshold of %lld ns "
                "and step name '%s': its figures follow those, not the options given\n",
                command, terminalSafe(files[i]).c_str(), static_cast<long long>(d->gapThreshold),
                terminalSafe(d->stepPrefix.empty() ? "ProfilerStep#" : d->stepPrefix).c_str());
    }
    const std::vector<std::string> errors =
        loadEach(traces, options, [&](size_t k, const std::shared_ptr<const Trace>& t) {
            if (t->sliceCount() == 0) { // truncated early, or not a profile
                std::string why = traces[k] + ": no event could be read: nothing to digest";
                if (!t->warnings().empty()) why += " (" + t->warnings().front() + ")";
                return why;
            }
            try {
                outcomes[which[k]].digest =
                    digestTrace(TraceAnalysis(t, settings), traces[k], int64_t(which[k]));
            } catch (const std::exception& e) {
                return traces[k] + ": cannot digest: " + e.what();
            }
            return std::string();
        });
    for (size_t k = 0; k < traces.size(); ++k)
        if (!errors[k].empty()) outcomes[which[k]] = failed(errors[k], traces[k]);
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
