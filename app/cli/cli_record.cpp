// strata-cli record [-o OUT] [options] -- CMD ARGS...
// Runs CMD with the CUPTI collector injected (core/record/launcher.h), forwards its exit code
// and prints what it wrote. Exit codes of its own: 2 usage / collector missing / output not
// writable, 126 not executable, 127 command not found (as a shell would), 1 when the target
// exited with 0 but its run record could not be written.
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_record_live.h"
#include "cli_record_remote.h"

#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "model/names/time_text.h"
#include "record/launcher.h"
#include "record/process_group.h"
#include "record/record_summary.h"
#include "record/signal_forwarder.h"
#include "util/terminal_text.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace strata::cli {
namespace {

const char* kUsage =
    "usage: strata-cli record [-o OUT] [options] -- CMD ARGS...\n"
    "Runs CMD (no shell) with the Strata CUPTI collector injected and writes a .strata trace.\n"
    "\n"
    "  -o, --output PATH      output path; {pid} {rank} {host} are expanded in each process\n"
    "                         (default strata-YYYYmmdd-HHMMSS-{host}-{pid}.strata); {rank} and\n"
    "                         {host} keep only [A-Za-z0-9._-]\n"
    "  -f, --force            overwrite an existing output file (refused otherwise); never\n"
    "                         one another recording is writing, nor through a symbolic link\n"
    "  --capture LIST         api,nvtx,kernels,memcpy,memset,sync,memory or all (default all)\n"
    "  --buffer-size BYTES    CUPTI activity buffer size (suffix K or M allowed)\n"
    "  --wait W --warmup U --active A --repeat R\n"
    "                         schedule in steps, like torch.profiler.schedule (repeat 0 = on)\n"
    "  --step-name NAME       the NVTX range or mark that marks a step\n"
    "  --capture-range NAME   capture only inside NVTX ranges named NAME; cudaProfilerApi:\n"
    "                         between cudaProfilerStart and cudaProfilerStop\n"
    "  --python off|calls|sample[=HZ]  the target's Python: every call, or its stacks sampled\n"
    "                         (default sample=1000)\n"
    "  --cpu-sample[=HZ]      sample native stacks (default 1000 Hz when given)\n"
    "  --gpu-metrics[=SET]    GPU hardware counters over time (CUPTI PM sampling) as rows\n"
    "                         under each GPU: default (SM active, SM occupancy, tensor active,\n"
    "                         DRAM read/write, PCIe and NVLink where the chip has them) or a\n"
    "                         comma list of CUPTI metric names\n"
    "  --gpu-metrics-interval-us N\n"
    "                         the GPU metrics' sampling interval (default 100)\n"
    "  --kernel-metrics REGEX per-kernel counters (CUPTI's range profiler) of the launches of\n"
    "                         the kernels whose demangled name REGEX matches, as args of each\n"
    "                         kernel: every such launch is serialised and replayed once per\n"
    "                         pass (how many is said when the first is measured); for the few\n"
    "                         kernels you are tuning\n"
    "  --kernel-metrics-set LIST\n"
    "                         default (the roofline's inputs, SM and memory throughput,\n"
    "                         occupancy) or a comma list of CUPTI metric names\n"
    "  --duration SECONDS     stop capturing after this long\n"
    "  --flush-ms MS          collector flush interval (default 200)\n"
    "  --live                 the collector hands its records to the file every flush, and\n"
    "                         a line a second says kernels/s, GPU busy %, records dropped\n"
    "  --collector PATH       the collector library (default: $STRATA_COLLECTOR, then next to\n"
    "                         strata-cli, ../lib/strata/, ../kernels/collector/)\n"
    "  --no-collector         run CMD without the collector (only the run record is written)\n"
    "  -C, --cwd DIR          run CMD in DIR\n"
    "  -e, --env NAME=VALUE   set NAME in CMD's environment (repeatable)\n"
    "  -u, --unset NAME       remove NAME from CMD's environment (repeatable)\n"
    "  --wait-for-attach      keep nothing until `strata-cli attach --start PID`, then only\n"
    "                         between each start and its stop (CUDA's records; --python off)\n"
    "  -q, --quiet            no summary\n"
    "  --remote [USER@]HOST[:PORT]\n"
    "                         run CMD there, over ssh (your keys and ~/.ssh/config; no password\n"
    "                         is asked for): this strata-cli and its collector are copied to\n"
    "                         --remote-dir when missing or another version (same architecture),\n"
    "                         CMD's output streams here, a signal here stops CMD's group there,\n"
    "                         and the traces come back into -o's folder (-o's {pid} {rank}\n"
    "                         {host} expanded there); the options above apply there (-C: a\n"
    "                         folder there)\n"
    "  --remote-dir DIR       Strata's folder there (default ~/.cache/strata/remote)\n"
    "  --keep-remote          keep the run's files there too (DIR/runs/ID)\n"
    "  --fetch ID             with --remote, run nothing: copy back the files of the run ID\n"
    "                         there once it has ended (a run whose connection dropped goes on)\n"
    "  --ssh-option OPT       passed to ssh as -o OPT (repeatable), e.g. IdentityFile=~/.ssh/k\n"
    "When CMD exits, each trace file its processes wrote (those carrying this run's id) gets a\n"
    "run record (command line, working directory, environment changes, exit code or signal,\n"
    "start, duration, host); when they wrote none, a file holding the run record is written at\n"
    "the output path (strata-cli info FILE shows it).\n"
    "Two recordings never write over each other: the file is created exclusively, and a run\n"
    "whose name another recording took ends with an error naming it.\n"
    "CMD runs in its own process group unless strata-cli is a terminal's foreground job (then\n"
    "Ctrl-C and Ctrl-Z reach CMD and its children as usual); SIGINT, SIGTERM and SIGHUP sent to\n"
    "strata-cli are passed on to CMD's process group (to CMD alone in a terminal). CMD is tied\n"
    "to strata-cli's life: if strata-cli is killed, CMD gets SIGTERM, and its collector closes\n"
    "the trace with a run record saying so.\n"
    "Exit code: CMD's (128+N if a signal N killed it), or 1 if CMD exited with 0 but its run\n"
    "record could not be written anywhere; 127 command not found, 126 not executable, 2 bad\n"
    "usage, collector missing or an output path that cannot be written.\n";

bool parseInt(const std::string& s, long long lo, long long hi, long long* out) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno || end == s.c_str()) return false;
    long long mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = 1024, ++end;
    else if (*end == 'M' || *end == 'm')
        mul = 1024 * 1024, ++end;
    if (*end) return false;
    *out = v * mul;
    return *out >= lo && *out <= hi;
}

// Hidden: --synthetic-trace N -o FILE writes the synthetic program (io/synthetic_trace.h, the
// one strata-cli synth writes as JSON) as a .strata recording of N events, for load benchmarks
// (strata-bench load FILE) and format tests.
int writeSynthetic(long long n, const std::string& path) {
    const auto t0 = std::chrono::steady_clock::now();
    SynthOptions o;
    o.events = uint64_t(n);
    o.devices = 2;
    o.streams = 4;
    o.events = std::max<uint64_t>(o.events, synthMinimumEvents(o));
    SynthTotals totals;
    std::string error;
    const std::string file = path.size() > 7 && path.compare(path.size() - 7, 7, ".strata") == 0
                                 ? path
                                 : path + ".strata";
    if (file != path) {
        std::fprintf(stderr, "strata-cli record: --synthetic-trace writes .strata: name it so\n");
        return 2;
    }
    if (!writeSyntheticTrace(o, path, &totals, &error)) {
        std::fprintf(stderr, "strata-cli record: %s\n", error.c_str());
        return 1;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("wrote %llu events, %llu bytes to %s in %.3f s (%.0f MB/s)\n",
                (unsigned long long)totals.events, (unsigned long long)totals.bytes, path.c_str(),
                s, double(totals.bytes) / s / 1e6);
    return 0;
}

// The run on this machine: CMD started with the collector, signals passed on, the run completed
// and said.
int recordHere(RecordOptions& o, bool quiet) {
    std::string error;
    if (resolveCommand(o.command[0], o.workingDirectory, &error).empty()) {
        std::fprintf(stderr, "strata-cli record: %s\n", error.c_str());
        return error.find("not found") != std::string::npos ? 127 : 126;
    }
    if (const char* other = std::getenv("CUDA_INJECTION64_PATH");
        other && *other && !quiet && o.inject)
        std::fprintf(stderr,
                     "strata-cli record: note: CUDA_INJECTION64_PATH=%s (another tool?) is "
                     "replaced by the Strata collector for this run\n",
                     other);
    // In a terminal's foreground, the target stays in our process group: the shell's job
    // control (Ctrl-C, Ctrl-Z, fg, a pager after a pipe) goes on working as for any command.
    o.ownProcessGroup = !isForegroundJob();
    // From before the spawn to the end: a signal never ends strata-cli with the run unrecorded
    // (one that comes while the target starts is passed on once it runs).
    SignalForwarder forward;
    Launcher launcher;
    if (!launcher.start(o, &error)) {
        std::fprintf(stderr, "strata-cli record: %s\n", error.c_str());
        return 2;
    }
    forward.setTarget(launcher.pid(), launcher.processGroup() > 0);
    if (o.waitForAttach && !quiet)
        std::fprintf(stderr,
                     "strata-cli record: %d waits for an attach session: nothing is kept until "
                     "`strata-cli attach --start PID` (its processes: strata-cli attach --list)\n",
                     int(launcher.pid()));
    int code = o.live ? waitPrintingLiveStatus(launcher, stderr) : launcher.wait();
    const RecordingResult result = launcher.finish();
    if (!result.error.empty()) {
        std::fprintf(stderr, "strata-cli record: error: the run record was not written: %s\n",
                     terminalSafe(result.error).c_str());
        if (code == 0) code = 1; // the run is lost: never a silent success
    }
    if (!quiet) {
        std::string out = "strata-cli record: " + terminalSafe(o.command[0]) + " " +
                          describeExit(launcher.run()) + " after " +
                          formatDuration(launcher.run().durationNs) + "\n";
        if (result.runOnly)
            out += "  no trace file matches " + terminalSafe(launcher.outputTemplate()) +
                   (o.inject ? " (did the target start CUDA? is the collector " +
                                   terminalSafe(launcher.collectorPath()) + " loadable?)"
                             : "") +
                   "; the run record is in:\n";
        for (const auto& f : result.files) out += formatTraceFileSummary(summarizeTraceFile(f));
        for (const auto& n : result.notes) out += "  note: " + terminalSafe(n) + "\n";
        std::fputs(out.c_str(), stderr);
    }
    return code;
}

} // namespace

int record(const Args& args) {
    RecordOptions o;
    RemoteCommandLine remote;
    std::string remoteText;
    bool quiet = false, noCollector = false, pythonGiven = false, intervalGiven = false;
    long long synthetic = -1;
    CommandLine line("record", kUsage, /*longUsage=*/true);
    // A count with an optional K or M suffix in [lo, hi]; `what` says what was expected.
    auto count = [](long long lo, long long hi, std::string what, auto set) -> TakeValue {
        return [lo, hi, what, set](const std::string& v) -> std::string {
            long long n = 0;
            if (!parseInt(v, lo, hi, &n)) return what + ", got '" + v + "'";
            set(n);
            return {};
        };
    };
    line.flag("-q|--quiet", &quiet)
        .flag("-f|--force", &o.force)
        .flag("--no-collector", &noCollector)
        .flag("--wait-for-attach", &o.waitForAttach)
        .flag("--live", &o.live)
        .option("-o|--output", text(&o.output))
        .option("--capture",
                [&o](const std::string& v) {
                    std::string error;
                    return parseCaptureList(v, &o.capture, &error) ? std::string() : error;
                })
        .option("--buffer-size",
                count(64 << 10, 256 << 20, "--buffer-size expects 64K..256M bytes (e.g. 8M)",
                      [&o](long long n) { o.bufferSize = uint64_t(n); }))
        .option("--python",
                [&o, &pythonGiven](const std::string& v) {
                    std::string error;
                    pythonGiven = true;
                    return parsePythonRecording(v, &o, &error) ? std::string() : error;
                })
        .optionalValue("--cpu-sample",
                       count(1, 10'000, "--cpu-sample expects a rate of 1..10000 Hz",
                             [&o](long long n) { o.cpuSampleHz = int(n); }),
                       "1000")
        .optionalValue(
            "--gpu-metrics",
            [&o](const std::string& v) {
                std::string error;
                if (!validGpuMetricSet(v, &error)) return error;
                o.gpuMetrics = v;
                return std::string();
            },
            "default")
        .option("--gpu-metrics-interval-us",
                count(1, 1'000'000, "--gpu-metrics-interval-us expects 1..1000000 us",
                      [&o, &intervalGiven](long long n) {
                          o.gpuMetricsIntervalUs = int(n);
                          intervalGiven = true;
                      }))
        .option("--kernel-metrics", text(&o.kernelMetrics))
        .option("--kernel-metrics-set", text(&o.kernelMetricsSet))
        .option("--step-name", text(&o.stepName))
        .option("--capture-range", text(&o.captureRange))
        .option("--duration",
                [&o](const std::string& v) -> std::string {
                    char* end = nullptr;
                    o.durationS = std::strtod(v.c_str(), &end);
                    if (end == v.c_str() || *end || !(o.durationS > 0))
                        return "--duration expects seconds > 0, got '" + v + "'";
                    return {};
                })
        .option("--flush-ms", count(1, 3'600'000, "--flush-ms expects milliseconds >= 1",
                                    [&o](long long n) { o.flushMs = int(n); }))
        .option("--collector", text(&o.collector))
        .option("-C|--cwd", text(&o.workingDirectory))
        .option("-e|--env",
                [&o](const std::string& v) -> std::string {
                    const size_t eq = v.find('=');
                    if (eq == std::string::npos || eq == 0)
                        return "--env expects NAME=VALUE, got '" + v + "'";
                    o.extraEnvironment.emplace_back(v.substr(0, eq), v.substr(eq + 1));
                    return {};
                })
        .option("-u|--unset",
                [&o](const std::string& v) {
                    o.removedEnvironment.push_back(v);
                    return std::string();
                })
        .option("--remote", text(&remoteText))
        .option("--remote-dir", text(&remote.dir))
        .flag("--keep-remote", &remote.keep)
        .option("--fetch", text(&remote.fetchRun))
        .option("--ssh-option",
                [&remote](const std::string& v) {
                    remote.host.sshOptions.push_back(v);
                    return std::string();
                })
        .option("--synthetic-trace", count(0, 1ll << 40, "--synthetic-trace expects a record count",
                                           [&synthetic](long long n) { synthetic = n; }))
        .command(&o.command);
    for (const char* step : {"--wait", "--warmup", "--active", "--repeat"}) {
        int* field = std::string(step) == "--wait"     ? &o.wait
                     : std::string(step) == "--warmup" ? &o.warmup
                     : std::string(step) == "--active" ? &o.active
                                                       : &o.repeat;
        line.option(step, count(0, 1 << 30, std::string(step) + " expects a step count >= 0",
                                [field](long long n) { *field = int(n); }));
    }
    if (const auto exit = line.parse(args)) return *exit;
    if (noCollector) o.inject = false;
    if (intervalGiven && o.gpuMetrics.empty())
        return line.usageError("--gpu-metrics-interval-us needs --gpu-metrics");
    // An attach session gates CUDA's records: Python is not sampled unless asked (then refused).
    if (o.waitForAttach && !pythonGiven) o.python = PythonRecording::Off;

    if (synthetic >= 0) {
        if (o.output.empty()) return line.usageError("--synthetic-trace needs -o FILE");
        return writeSynthetic(synthetic, o.output);
    }
    std::string error;
    if (!remote.fetchRun.empty()) { // nothing to run: an earlier remote run's files
        if (remoteText.empty()) return line.usageError("--fetch needs --remote");
        if (!o.command.empty()) return line.usageError("--fetch runs nothing: no command");
        if (!parseRemoteHost(remoteText, &remote.host, &error)) return line.usageError(error);
        return recordRemote(remote, o, quiet);
    }
    if (!validateRecordOptions(o, &error)) return line.usageError(error);
    if (!remoteText.empty()) { // the run there (cli_record_remote.cpp)
        if (!parseRemoteHost(remoteText, &remote.host, &error)) return line.usageError(error);
        return recordRemote(remote, o, quiet);
    }
    if (!remote.dir.empty() || remote.keep || !remote.host.sshOptions.empty())
        return line.usageError("--remote-dir, --keep-remote and --ssh-option need --remote");
    return recordHere(o, quiet);
}

} // namespace strata::cli
