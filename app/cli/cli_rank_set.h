#pragma once
// Several FILEs at once (the ranks of a job) for strata-cli's commands: loaded on all cores
// (io/set/trace_set_loader.h; through the trace cache under --cache), each reduced on the thread
// that loaded it and let go, so a set needs no more memory than its loads at a time.
#include "cli_options.h"

#include "analysis/analysis_settings.h"
#include "analysis/json/rank_digest_json.h"
#include "analysis/ranks/rank_digest.h"
#include "analysis/trace_analysis.h"
#include "io/set/trace_set_loader.h"
#include "model/trace.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::cli {

// Calls use(i, trace) for every files[i] (from the loading threads, several at once). False
// after printing "strata-cli COMMAND: <the load error>" for every file that did not load.
bool forEachTrace(const char* command, const std::vector<std::string>& files,
                  const std::function<void(size_t, const std::shared_ptr<const Trace>&)>& use,
                  const TraceSetOptions& options = {});

// Every file's outcome, in the order of `files`, by io/set/digest_set.h's digestSet (`options`:
// loads at a time; through the cache under --cache): a trace is loaded and digested, a digest
// `strata-cli digest` wrote is read (its warning, when it was made with other settings, said on
// stderr), and one it wrote for a file it could not read gives that file's error. Never throws
// for a file: what fails is that file's error.
std::vector<DigestOutcome> digestEach(const char* command, const std::vector<std::string>& files,
                                      const AnalysisSettings& settings,
                                      const TraceSetOptions& options = {});

// Calls use(i, its rank, its analysis) for every files[i] (from the loading threads), the
// analysis over the range `args` gives (from each trace's own start). False as forEachTrace.
bool forEachRankAnalysis(
    const char* command, const std::vector<std::string>& files, const AnalysisArgs& args,
    const std::function<void(size_t, const RankIdentity&, const TraceAnalysis&)>& use);

// The FILEs of a command over a set: given as arguments and/or named in --file-list LIST, for
// sets too large for a command line. LIST is read by this rule (the Slurm scripts in
// packaging/slurm read it by the same): a line ends at LF, a CR before it is dropped; a line that
// is empty or only blanks (spaces, tabs) is skipped; a line whose first character is '#' is a
// comment; any other line is a path exactly as written, blanks included, taken from LIST's
// folder when relative. Nothing is read as something else in silence: a comment (or a line of
// blanks) that names an existing file, and a path with leading or trailing blanks that does not
// exist while its trimmed form does (or that starts with blanks then '#'), are warned about on
// stderr naming LIST and the line ("write ./#x.json to name it"); the path is still taken as
// written (a missing one is that file's error, an error row of `ranks`).
class SetFiles {
public:
    explicit SetFiles(const char* command) : command_(command) {}
    void declare(CommandLine& line);
    // After line.parse(): LIST's files added to the arguments; the exit code of a usage error
    // when LIST cannot be read (never blocks: a FIFO is refused) or no file is given at all.
    std::optional<int> resolve(const CommandLine& line);
    const std::vector<std::string>& files() const { return files_; }

private:
    const char* command_;
    std::vector<std::string> files_;
    std::string list_;
};

// LIST's text read by the rule above: its paths (relative ones from LIST's folder) and the
// warnings ("LIST:LINE: ...").
std::vector<std::string> fileListPaths(std::string_view text, const std::string& list,
                                       std::vector<std::string>* warnings);

// Indices by rank label (then by position): the order the per-rank rows print in.
std::vector<size_t> byRank(const std::vector<RankDigest>& digests);
std::vector<size_t> byRank(const std::vector<RankIdentity>& ranks);

} // namespace strata::cli
