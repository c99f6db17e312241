// A stand-in for a CUDA program run under `strata-cli record`, for tests on machines without a
// GPU: it does what the collector would do in the target, i.e. expands $STRATA_OUTPUT for its
// own pid/rank/host and writes a small .strata file through StrataTraceWriter.
//
//   record_fake_target [--exit N] [--no-cuda] [--cupti-error TEXT] [--spawn-child]
//                      [--env-to FILE] [--sleep-ms N] [--chatter N] [--ignore-sigint]
//                      [--no-trace] [--survivor-ms N] [--no-run-id] [--open-when FILE]
//                      [--launches N]
//
// --no-cuda       metadata cuda_initialized=0 and no GPU records (a target that never used CUDA)
// --cupti-error   metadata cupti_error=TEXT (CUPTI taken by another tool)
// --spawn-child   also runs itself once more (posix_spawn, same environment), so two processes
//                 write two files; waits for it
// --env-to FILE   writes the STRATA_* / *_INJECTION64_PATH variables it sees to FILE
// --chatter N     writes N numbered lines to stdout and N to stderr, interleaved, unbuffered
// --ignore-sigint ignores SIGINT (a Stop must escalate to SIGTERM)
// --no-trace      writes no trace file (a program that died or never started CUDA)
// --survivor-ms N forks a child that keeps stdout/stderr open and outlives this process by N ms
// --no-run-id     leaves $STRATA_RUN_ID out of its metadata (a collector older than run ids)
//                 and its process ancestry (older still)
// --open-when FILE waits (up to 60 s) until FILE exists before creating its trace: two runs
//                 then both pass the launcher's early "exists" check before either creates it
// --launches N    N launches and their kernels instead of 2 (a big trace: remote copy timings)
// Like the collector, it creates its file exclusively (with $STRATA_OVERWRITE=1, after removing a
// finished one: io/strata/strata_file_create.h) and records its process ancestry beside the run
// id; a file it cannot create: the reason on stderr, exit 91.
// Exits with N (default 0).
#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "contract/process_ancestry.h"
#include "io/strata/strata_trace_writer.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

int main(int argc, char** argv) {
    namespace env = strata::collector_env;
    int exitCode = 0;
    bool cuda = true;
    bool child = false;
    int sleepMs = 0;
    std::string cuptiError;
    std::string envTo;
    int chatter = 0;
    bool trace = true;
    int survivorMs = 0;
    bool noRunId = false;
    int launches = 2;
    std::string openWhen;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--exit" && i + 1 < argc)
            exitCode = std::atoi(argv[++i]);
        else if (a == "--no-cuda")
            cuda = false;
        else if (a == "--cupti-error" && i + 1 < argc)
            cuptiError = argv[++i];
        else if (a == "--spawn-child")
            child = true;
        else if (a == "--env-to" && i + 1 < argc)
            envTo = argv[++i];
        else if (a == "--sleep-ms" && i + 1 < argc)
            sleepMs = std::atoi(argv[++i]);
        else if (a == "--chatter" && i + 1 < argc)
            chatter = std::atoi(argv[++i]);
        else if (a == "--ignore-sigint")
            std::signal(SIGINT, SIG_IGN);
        else if (a == "--no-trace")
            trace = false;
        else if (a == "--survivor-ms" && i + 1 < argc)
            survivorMs = std::atoi(argv[++i]);
        else if (a == "--no-run-id")
            noRunId = true;
        else if (a == "--open-when" && i + 1 < argc)
            openWhen = argv[++i];
        else if (a == "--launches" && i + 1 < argc)
            launches = std::atoi(argv[++i]);
    }
    for (int k = 0; k < chatter; ++k) {
        char line[64];
        const int n = std::snprintf(line, sizeof line, "out %d\n", k);
        (void)!write(1, line, size_t(n));
        const int m = std::snprintf(line, sizeof line, "err %d\n", k);
        (void)!write(2, line, size_t(m));
    }
    if (survivorMs > 0 && fork() == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(survivorMs + sleepMs));
        _exit(0);
    }
    if (!trace) {
        if (sleepMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
        return exitCode;
    }
    if (!envTo.empty()) {
        if (std::FILE* f = std::fopen(envTo.c_str(), "w")) {
            for (char** e = environ; *e; ++e)
                if (std::strncmp(*e, "STRATA_", 7) == 0 || std::strstr(*e, "_INJECTION64_PATH="))
                    std::fprintf(f, "%s\n", *e);
            std::fclose(f);
        }
    }
    const char* tmpl = std::getenv(env::kOutput);
    if (!tmpl) {
        std::fprintf(stderr, "record_fake_target: %s is not set\n", env::kOutput);
        return 90;
    }
    const strata::OutputPathValues values = strata::currentProcessValues();
    strata::StrataTraceWriter w;
    std::string error;
    for (int i = 0; !openWhen.empty() && access(openWhen.c_str(), F_OK) != 0 && i < 12000; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const char* overwrite = std::getenv(env::kOverwrite);
    const auto mode = overwrite && std::strcmp(overwrite, "1") == 0
                          ? strata::CreateMode::ReplaceFinished
                          : strata::CreateMode::Exclusive;
    if (!w.open(strata::expandOutputPath(tmpl, values), &error, mode)) {
        std::fprintf(stderr, "record_fake_target: %s\n", error.c_str());
        return 91;
    }
    const int64_t pid = values.pid;
    w.metadata(env::kMetaPid, std::to_string(pid));
    w.metadata(env::kMetaRank, values.rank);
    w.metadata(env::kMetaHost, values.host);
    w.metadata(env::kMetaCudaInitialized, cuda ? "1" : "0");
    if (const char* runId = std::getenv(env::kRunId); runId && *runId && !noRunId)
        w.metadata(env::kMetaRunId, runId);
    if (!noRunId) w.metadata(env::kMetaAncestry, strata::processAncestry());
    if (!cuptiError.empty()) w.metadata(env::kMetaCuptiError, cuptiError);
    w.process(pid, "record_fake_target");
    w.thread(pid, pid, "main");
    if (cuda) {
        // Two launches (or --launches N) and their kernels: 2 CPU slices + 2 kernels = 4 slices.
        const uint32_t launch = w.string("cudaLaunchKernel");
        const uint32_t kernel = w.string("fake_kernel");
        strata::GpuActivity g;
        g.device = 0;
        g.stream = 7;
        for (int k = 0; k < launches; ++k) {
            const int64_t t = 1000 + k * 10000;
            w.cpuSlice(pid, pid, t, t + 500, launch, strata::SliceKind::CudaRuntime, k + 1, 0);
            w.gpuOp(t + 2000, t + 5000, kernel, strata::SliceKind::Kernel, g, k + 1);
        }
    }
    w.flush();
    if (child) {
        pid_t p = -1;
        char* args[] = {argv[0], nullptr};
        if (posix_spawn(&p, argv[0], nullptr, nullptr, args, environ) == 0) {
            int status = 0;
            waitpid(p, &status, 0);
        }
    }
    if (sleepMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
    w.close();
    return exitCode;
}
