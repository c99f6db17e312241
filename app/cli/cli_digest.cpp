// strata-cli digest: each trace reduced to its rank digest (core/analysis/ranks/rank_digest.h, by
// core/io/set/digest_set.h, written as analysis/json/rank_digest_json.h describes), one file per
// trace in an output folder: what the cross-rank analysis needs, a few KB whatever the trace's
// size, so that `strata-cli ranks` can reduce a job's digests made where its traces lie
// (docs/ranks.md).
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_rank_set.h"
#include "util/output_file.h"
#include "util/terminal_text.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

namespace {

const std::string kUsage =
    "usage: strata-cli digest [--gap-threshold-us N] [--step-name PREFIX] [--file-list LIST]\n"
    "                         -o DIR FILE...\n"
    "\n"
    "Writes DIR/<file>.digest.json for every trace FILE (loaded on all cores): its rank, host,\n"
    "clock hints, collectives and per-step GPU busy and idle by cause. `strata-cli ranks` takes\n"
    "digests as it takes traces.\n"
    "  -o, --output DIR     the folder the digests go to (made when absent)\n"
    "  --threads N          traces loaded at a time (default: one per core; a batch job's\n"
    "                       CPUs, e.g. $SLURM_CPUS_PER_TASK)\n"
    "  --file-list LIST     the FILEs named in LIST too: a path per line, exactly as written\n"
    "                       (blanks kept; a CR before the line's end dropped), relative ones\n"
    "                       from LIST's folder; blank lines and lines whose first character is\n"
    "                       '#' skipped (write ./#x for a file named #x); a line that may mean\n"
    "                       something else is warned about\n"
    "  --gap-threshold-us N GPU idle gaps strictly longer than N microseconds (default 10)\n"
    "  --step-name PREFIX   steps are the slices named PREFIX... (default ProfilerStep#)\n";

} // namespace

namespace strata::cli {

int digest(const Args& args) {
    std::string dir;
    AnalysisArgs analysisArgs;
    SetFiles set("digest");
    CommandLine line("digest", kUsage, true);
    uint64_t threads = 0;
    line.option("-o|--output", text(&dir))
        .option("--threads", wholeNumber("--threads", 1024, &threads));
    set.declare(line);
    analysisArgs.declareSettings(line);
    if (const auto exit = line.parse(args)) return *exit;
    if (const auto exit = set.resolve(line)) return *exit;
    const std::vector<std::string>& files = set.files();
    if (dir.empty()) return line.usageError("-o DIR is required");
    std::map<std::string, std::string> named; // a digest's name: the file it is of
    for (const std::string& f : files) {
        const std::string name = std::filesystem::path(f).filename().string();
        const auto [at, fresh] = named.emplace(name, f);
        if (!fresh && at->second != f)
            return line.usageError("two FILEs are named " + name + " (" + at->second + ", " + f +
                                   "): their digests would overwrite each other");
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "strata-cli digest: cannot make %s: %s\n", terminalSafe(dir).c_str(),
                     ec.message().c_str());
        return 1;
    }
    TraceSetOptions load;
    load.threads = unsigned(threads);
    load.load.oneThread = threads == 1;
    const std::vector<DigestOutcome> outcomes =
        digestEach("digest", files, analysisArgs.settings, load);
    int exit = 0;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string out =
            (std::filesystem::path(dir) /
             (std::filesystem::path(files[i]).filename().string() + ".digest.json"))
                .string();
        // A file that did not digest gets its error in its place, for the reduce to report.
        const std::string text =
            digestOutcomeToJson(outcomes[i], files[i])
                .dump(1, ' ', false, nlohmann::json::error_handler_t::replace) +
            "\n";
        // A name made here: only a regular file (an earlier digest) is replaced; a link, a FIFO
        // or a device planted under it is refused, never followed nor written into.
        std::string why;
        OutputOptions made;
        made.named = false;
        const std::unique_ptr<OutputFile> file = OutputFile::open(out, &why, made);
        if (!file || std::fwrite(text.data(), 1, text.size(), file->stream()) != text.size() ||
            !file->commit(&why)) {
            std::fprintf(stderr, "strata-cli digest: cannot write %s\n", terminalSafe(why).c_str());
            return 1;
        }
        if (!outcomes[i].digest) {
            std::fprintf(stderr, "strata-cli digest: %s (its error written to %s)\n",
                         terminalSafe(outcomes[i].error).c_str(), terminalSafe(out).c_str());
            exit = 1;
            continue;
        }
        std::printf("%s -> %s (%zu bytes)\n", terminalSafe(files[i]).c_str(),
                    terminalSafe(out).c_str(), text.size());
    }
    return exit;
}

} // namespace strata::cli
