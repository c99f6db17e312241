// strata-cli: the headless front door, one subcommand per file (cli_commands.h), listed below.
#include "build_info.h"
#include "cli_commands.h"
#include "cli_options.h"
#include "util/output_file.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Command {
    const char* name;
    int (*run)(const strata::cli::Args&);
    const char* help;
};

const Command kCommands[] = {
    {"summary", strata::cli::summary,
     "summary [--json] [--gap-threshold-us N] FILE...   kernels, GPU time and launch gaps (per "
     "rank and whole for several)"},
    {"synth", strata::cli::synth,
     "synth --events N --seed S [--devices D --streams K] -o FILE   deterministic Kineto-style "
     "trace"},
    {"record", strata::cli::record,
     "record [-o OUT] [options] -- CMD ARGS...   run CMD with the CUPTI collector injected"},
    {"attach", strata::cli::attachCommand,
     "attach --list | --start PID | --stop PID [--json] [--remote HOST]   start and stop capturing "
     "in a run of record --wait-for-attach"},
    {"export", strata::cli::exportTrace,
     "export --format perfetto-json [--range START:END] [--gzip] IN... OUT   Perfetto JSON "
     "(several INs: one timeline, clocks aligned)"},
    {"gaps", strata::cli::gaps,
     "gaps [--json] [--gap-threshold-us N] [--range-us A:B] FILE...   why the GPU waited, per gap"},
    {"stats", strata::cli::stats,
     "stats [--json] [--by name|op|call-site] [--range-us A:B] FILE...   kernel, category, CPU "
     "op and copy tables (kernels per Python call site: --by call-site)"},
    {"advise", strata::cli::advise,
     "advise [--json] FILE   findings: idle causes, graph candidates, copies, syncs, occupancy"},
    {"breakdown", strata::cli::breakdown,
     "breakdown [--json] [--ops all|linked] [--step-name P] FILE...   GPU time with overlap "
     "accounted: computation, exposed communication and memcpy, idle"},
    {"idle", strata::cli::idle,
     "idle [--json] [--hta-steps] [--hta-us] FILE...   HTA's idle breakdown (host "
     "wait, kernel wait, other) and launch queue length per stream"},
    {"critical-path", strata::cli::criticalPath,
     "critical-path [--json] [--annotation TEXT [--instance N[:M]]] FILE...   HTA's critical "
     "path of a step: its length, bounds and each edge's delay"},
#ifdef STRATA_HAVE_QUERY
    {"query", strata::cli::query,
     "query [--json|--csv] [--timeout S] \"SQL\" FILE...   SQL over the trace's tables (--schema "
     "lists them; docs/query.md)"},
#endif
    {"diff", strata::cli::diff,
     "diff [--json] [--baseline-step S --candidate-step S] BASELINE [CANDIDATE]   what changed: "
     "kernels, ops, copies, idle"},
    {"ranks", strata::cli::ranks,
     "ranks [--json] [--align auto|time|collectives|step:NAME] [--mpi] FILE|DIGEST...   the ranks "
     "of a job aligned: offsets, stragglers, collective waits (--mpi: under mpirun)"},
    {"digest", strata::cli::digest,
     "digest [--gap-threshold-us N] [--step-name P] -o DIR FILE...   each trace's rank digest "
     "(for ranks)"},
    {"synth-sections", strata::cli::synthSections,
     "synth-sections [--launches L] [--blocks B] [--tiles T] -o FILE.strata   synthetic sections"},
    {"sections", strata::cli::sections,
     "sections [--json] [--names A,B] [--clock-hz F] [--kernel K] FILE   in-kernel section "
     "statistics"},
    {"samples", strata::cli::samples,
     "samples [--json] [--thread TID] [--range A:B] [--top N] FILE   sampled Python stacks: "
     "self and total samples per function"},
    {"graphs", strata::cli::graphs,
     "graphs [--json] [--replays] FILE   CUDA graph replays node by node: per graph its replays "
     "and span, per node its runs and time"},
    {"roofline", strata::cli::roofline,
     "roofline [--json] FILE   the roofline of the kernels measured with --kernel-metrics: "
     "intensity, achieved FLOP/s, memory- or compute-bound"},
    {"convert", strata::cli::convert,
     "convert IN OUT.strata   any trace as a model file: opens at the speed of copying it"},
    {"info", strata::cli::info,
     "info [--json] FILE   what was run to make FILE, its metadata, why it has no GPU activity"},
};

void usage(FILE* out) {
    std::fprintf(out, "usage: strata-cli COMMAND [ARGS...]\n\ncommands:\n");
    for (const auto& c : kCommands) std::fprintf(out, "  %s\n", c.help);
    std::fprintf(out,
                 "\n--cache (with any command) reads a large JSON trace from the trace cache,\n"
                 "writing it there the first time (docs/cache.md).\n");
    std::fprintf(out, "\nstrata-cli COMMAND --help for a command's options; strata-cli --version "
                      "[--verbose] for what this build is.\n");
}

// SIGINT, SIGTERM, SIGHUP or SIGQUIT while an output is written (convert, export, digest,
// synth): its temporary file is removed (never a partial file left behind), then the signal ends
// the process as it would have.
extern "C" void interrupted(int sig) {
    strata::removeOutputTemporaries();
    static const char msg[] = "strata-cli: interrupted: the partial output was removed\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void removePartialOutputOnSignals() {
    struct sigaction sa {};
    sa.sa_handler = interrupted;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&sa.sa_mask, s);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaction(s, &sa, nullptr);
}

} // namespace

int main(int argc, char** argv) {
    // --cache, before the command or among its options (not after "--", nor anywhere in record's
    // arguments: its target's own), loads traces through the trace cache.
    std::vector<char*> kept;
    bool pastDashes = false;
    for (int i = 0; i < argc; ++i) {
        pastDashes = pastDashes || std::strcmp(argv[i], "--") == 0;
        const bool record = kept.size() > 1 && std::strcmp(kept[1], "record") == 0;
        if (i > 0 && !pastDashes && !record && std::strcmp(argv[i], "--cache") == 0)
            strata::cli::setUseCache(true);
        else
            kept.push_back(argv[i]);
    }
    argc = int(kept.size());
    argv = kept.data();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        usage(stdout);
        return 0;
    }
    if (name == "--version") {
        const bool verbose = argc > 2 && std::strcmp(argv[2], "--verbose") == 0;
        std::printf("%s\n%s", strata::versionLine("strata-cli").c_str(),
                    verbose ? strata::buildDetails().c_str() : "");
        return 0;
    }
    // record forwards these signals to its target instead (record/signal_forwarder.h).
    if (name != "record") removePartialOutputOnSignals();
    for (const auto& c : kCommands) {
        if (name == c.name) return c.run(strata::cli::Args(argv + 2, argv + argc));
    }
    std::fprintf(stderr, "strata-cli: unknown command '%s'\n\n", name.c_str());
    usage(stderr);
    return 2;
}
