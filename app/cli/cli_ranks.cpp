// strata-cli ranks: the ranks of a distributed job side by side (core/analysis/cross_rank.h):
// each file's rank and host, the clock offsets that align them and how they were estimated,
// per step the straggler and its delay, how late each rank started it, per collective instance who
// arrived last and how long the others waited; as tables or (--json) one JSON object
// (core/analysis/json/cross_rank_json.h).
#include "cli_commands.h"
#include "cli_mpi.h"
#include "cli_options.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/json/cross_rank_json.h"
#include "analysis/ranks/cross_rank.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const std::string kUsage =
    std::string(
        "usage: strata-cli ranks [--json] [--align auto|time|collectives|step:NAME]\n"
        "                        [--align-tolerance-us N] [--top N] [--gap-threshold-us N]\n"
        "                        [--step-name PREFIX] [--threads N] [--mpi]\n"
        "                        [--file-list LIST] FILE...\n"
        "       mpirun -n N strata-cli ranks --mpi [OPTIONS] FILE...\n"
        "\n"
        "The traces of one distributed job (a file per rank), aligned on one timeline; a FILE\n"
        "may also be the digest `strata-cli digest` made of a rank's trace. A file that cannot\n"
        "be read is an error row of the report (and said on stderr), the others are reported;\n"
        "the exit status is 1 only when no file could be:\n"
        "  --json               one JSON object: ranks, alignment, steps, collectives, warnings\n"
        "  --align METHOD       auto (default): the common time base when the collectives line\n"
        "                       up under it, else the collectives; time: the traces' time base\n"
        "                       (baseTimeNanoseconds, wall-clock timestamps); collectives: the\n"
        "                       matched NCCL/RCCL kernels end together; step:NAME: the starts of\n"
        "                       the step named NAME coincide\n"
        "  --align-tolerance-us N  how far apart the collectives may end under the time base\n"
        "                       for auto to keep it (default 50)\n"
        "  --top N              collective instances listed in the text output (default 10)\n"
        "  --file-list LIST     the FILEs named in LIST too: a path per line, exactly as\n"
        "                       written (blanks kept; a CR before the line's end dropped),\n"
        "                       relative ones from LIST's folder; blank lines and lines whose\n"
        "                       first character is '#' skipped (write ./#x for a file named\n"
        "                       #x); a line that may mean something else is warned about\n"
        "  --threads N          traces loaded at a time (default: one per core)\n"
        "  --mpi                under mpirun: the processes share the files (largest first, the\n"
        "                       next to whichever finishes; one at a time each, on one core),\n"
        "                       the first reduces and prints\n") +
    "  --gap-threshold-us N GPU idle gaps strictly longer than N microseconds (default 10)\n"
    "  --step-name PREFIX   steps are the slices named PREFIX... (default ProfilerStep#)\n";

std::string dur(TimeNs ns) {
    return formatPreciseDuration(ns);
}

std::string offsetText(const std::optional<TimeNs>& ns) {
    if (!ns) return "not aligned";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.3f us", double(*ns) / 1000.0);
    return buf;
}

void printAlignment(const CrossRankReport& r) {
    const ClockAlignment& a = r.alignment;
    if (a.aligned())
        std::printf("aligned by %s; reference rank %lld\n", terminalSafe(a.reason).c_str(),
                    static_cast<long long>(r.ranks[a.reference].rank));
    else
        std::printf("NOT ALIGNED: %s; no offset is claimed\n", terminalSafe(a.reason).c_str());
    std::printf("%zu collective instances matched across ranks", a.matched);
    if (a.spread)
        std::printf("; their ends after alignment lie within %s (median %s)",
                    dur(*a.spread).c_str(), dur(*a.medianSpread).c_str());
    std::printf("\n");
    for (const std::string& w : a.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    for (const std::string& w : r.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
}

void printRanks(const CrossRankReport& r) {
    std::printf("\n%6s %-12s %18s %12s %8s %14s %14s  %s\n", "rank", "host", "offset", "+/-",
                "kernels", "busy", "idle", "file");
    for (const CrossRankRow& row : r.ranks)
        std::printf("%6lld %-12s %18s %12s %8llu %14s %14s  %s\n", static_cast<long long>(row.rank),
                    terminalSafe(row.host.empty() ? "-" : row.host).c_str(),
                    offsetText(row.offset).c_str(),
                    row.uncertainty ? dur(*row.uncertainty).c_str() : "-",
                    static_cast<unsigned long long>(row.kernels), dur(row.busy).c_str(),
                    dur(row.idle).c_str(), terminalSafe(row.file).c_str());
}

void printSteps(const CrossRankReport& r) {
    for (const CrossRankStep& s : r.steps) {
        std::printf("\n%s: ", terminalSafe(s.name).c_str());
        if (s.straggler && s.byCollectives)
            std::printf("straggler rank %lld: the others waited %s for it at its collectives "
                        "(%zu compared)\n",
                        static_cast<long long>(r.ranks[*s.straggler].rank), dur(s.delay).c_str(),
                        s.collectives);
        else if (s.straggler)
            std::printf("slowest rank %lld: %s longer than the median rank's %s (no collective "
                        "compared)\n",
                        static_cast<long long>(r.ranks[*s.straggler].rank), dur(s.delay).c_str(),
                        dur(s.medianDuration).c_str());
        if (s.lastToStart)
            std::printf("rank %lld started its step %s late (after the first rank to start it)\n",
                        static_cast<long long>(r.ranks[*s.lastToStart].rank),
                        dur(s.startedLate).c_str());
        std::printf("%6s %14s %14s %14s %14s %14s %14s %8s %14s\n", "rank", "start", "late start",
                    "length", "busy", "idle", "launch-bound", "kernels", "caused wait");
        for (const RankStep& x : s.ranks)
            std::printf("%6lld %14s %14s %14s %14s %14s %14s %8llu %14s\n",
                        static_cast<long long>(r.ranks[x.rank].rank),
                        x.start ? dur(*x.start).c_str() : "-",
                        x.lateStart ? dur(*x.lateStart).c_str() : "-", dur(x.duration).c_str(),
                        dur(x.busy).c_str(), dur(x.idle).c_str(),
                        dur(x.idleByCause[size_t(GapCause::LaunchBound)]).c_str(),
                        static_cast<unsigned long long>(x.kernels), dur(x.causedWait).c_str());
    }
}

void printCollectives(const CrossRankReport& r, size_t top) {
    if (r.collectives.empty()) return;
    std::vector<const CrossRankCollective*> order;
    for (const CrossRankCollective& c : r.collectives) order.push_back(&c);
    std::stable_sort(order.begin(), order.end(),
                     [](const auto* a, const auto* b) { return a->lateBy > b->lateBy; });
    if (order.size() > top) order.resize(top);
    std::printf("\ncollectives the others waited longest at (%zu of %zu):\n", order.size(),
                r.collectives.size());
    std::printf("%14s %-14s %-10s %6s %14s %14s  %s\n", "arrival", "group", "op", "late", "late by",
                "max wait", "step");
    for (const CrossRankCollective* c : order)
        std::printf("%14s %-14s %-10s %6lld %14s %14s  %s\n",
                    dur(*std::min_element(c->arrival.begin(), c->arrival.end())).c_str(),
                    terminalSafe(c->group + " #" + std::to_string(c->index)).c_str(),
                    terminalSafe(c->op).c_str(), static_cast<long long>(r.ranks[c->lateRank].rank),
                    dur(c->lateBy).c_str(), dur(c->maxWait).c_str(), terminalSafe(c->step).c_str());
}

void printErrors(const std::vector<std::string>& errors) {
    if (errors.empty()) return;
    std::printf("\n%zu file%s not reduced:\n", errors.size(), errors.size() == 1 ? "" : "s");
    for (const std::string& e : errors) std::printf("  %s\n", terminalSafe(e).c_str());
}

} // namespace

namespace strata::cli {

int ranks(const Args& args) {
    bool json = false;
    std::string align = "auto";
    double toleranceUs = double(AlignRequest::kDefaultTolerance) / 1000.0;
    uint64_t top = 10;
    uint64_t threads = 0;
    bool mpi = false;
    AnalysisArgs analysisArgs;
    SetFiles set("ranks");
    CommandLine line("ranks", kUsage, true);
    line.flag("--json", &json)
        .option("--align", text(&align))
        .option("--align-tolerance-us", nonNegativeNumber("--align-tolerance-us", &toleranceUs))
        .option("--top", wholeNumber("--top", 1'000'000, &top))
        .option("--threads", wholeNumber("--threads", 1024, &threads))
        .flag("--mpi", &mpi);
    set.declare(line);
    analysisArgs.declareSettings(line);
    if (const auto exit = line.parse(args)) return *exit;
    if (const auto exit = set.resolve(line)) return *exit;
    if (mpi && !mpiBuilt())
        return line.usageError("--mpi: this strata-cli was built without MPI (Open MPI's "
                               "libopenmpi-dev was not found when it was configured)");
    const std::vector<std::string>& files = set.files();
    std::string problem;
    std::optional<AlignRequest> request = parseAlignRequest(align, &problem);
    if (!request) return line.usageError("--align " + problem);
    request->tolerance = TimeNs(std::llround(std::min(toleranceUs, 1e12) * 1000.0));

    if (mpi && threads)
        return line.usageError("--threads with --mpi: each process digests one file at a time on "
                               "one core; run a process per core (mpirun -n CORES)");
    TraceSetOptions load;
    load.threads = mpi ? 1 : unsigned(threads);
    load.load.oneThread = load.threads == 1;
    std::vector<DigestOutcome> outcomes;
    if (mpi) {
        std::optional<std::vector<DigestOutcome>> gathered =
            mpiDigestEach("ranks", files, analysisArgs.settings, load);
        if (!gathered) return 0; // not the first process: its share handed in
        outcomes = std::move(*gathered);
    } else {
        outcomes = digestEach("ranks", files, analysisArgs.settings, load);
    }
    std::vector<RankDigest> digests;
    std::vector<std::string> errors;
    std::vector<DigestOutcome> failed;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        if (outcomes[i].digest) {
            digests.push_back(std::move(*outcomes[i].digest));
            continue;
        }
        errors.push_back(outcomes[i].error);
        failed.push_back(std::move(outcomes[i]));
        if (failed.back().file.empty()) failed.back().file = files[i];
        std::fprintf(stderr, "strata-cli ranks: %s\n", terminalSafe(errors.back()).c_str());
    }
    if (digests.empty()) return 1;
    std::vector<RankDigest> sorted;
    for (size_t i : byRank(digests)) sorted.push_back(std::move(digests[i]));
    const CrossRankReport report = crossRank(sorted, *request);
    if (json) {
        printJson(crossRankToJson(report, failed));
        return 0;
    }
    std::printf("%zu ranks; ", report.ranks.size());
    printAlignment(report);
    printRanks(report);
    printSteps(report);
    printCollectives(report, top);
    printErrors(errors);
    return 0;
}

} // namespace strata::cli
