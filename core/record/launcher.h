#pragma once
// The one launcher (strata-cli record and the GUI's Launch dialog): finds the collector, builds
// the injected environment, spawns the target without a shell (record/spawn_target.h) in a
// process group of its own (record/process_group.h) and tied to the launcher's life (it gets
// SIGTERM if the launcher dies first: contract/launcher_tie.h), waits, forwards its exit code,
// finds the trace files the run's processes wrote (those carrying its run id, written by the
// target or a descendant: record/run_files.h) and completes them with what was run (finish(): a
// Run record, io/strata/strata_append.h). No file is ever written over another recording's: the
// collector and finish() create theirs exclusively (io/strata/strata_file_create.h).
#include "model/run_info.h"
#include "record/record_options.h"
#include "record/run_files.h"

#include <csignal>
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace strata {

// The running program's path (/proc/self/exe), "" when unknown.
std::string executablePath();

// Where the collector is looked for, in order: options.collector, $STRATA_COLLECTOR, then next
// to the running binary: <dir>/libstrata_collector.so, <dir>/../lib/strata/, and the build
// tree's <dir>/../kernels/collector/. Returns the absolute path, or "" with an error that lists
// every place it looked.
std::string findCollector(const RecordOptions& options, std::string* error);

// Resolves argv[0] like execvp (PATH search when it has no '/'). Errors say "command not found"
// (with the PATH searched) or "not executable" / "is a directory".
std::string resolveCommand(const std::string& name, const std::string& workingDirectory,
                           std::string* error);

// `base` ("NAME=value" strings, e.g. environ) with the collector's variables set/replaced
// (none when !options.inject; $STRATA_RUN_ID = runId among them when given), then
// options.removedEnvironment unset and options.extraEnvironment set.
std::vector<std::string> buildTargetEnvironment(const RecordOptions& options,
                                                const std::string& collectorPath,
                                                const std::string& outputTemplate,
                                                const char* const* base,
                                                const std::string& runId = {});

// What finish() did: the trace files of the run, each completed with the Run record.
struct RecordingResult {
    std::vector<std::string> files; // sorted; the run-only trace when the target wrote none
    bool runOnly = false;           // files holds the launcher's run-record trace only
    // Files not completed and why (still being written by a survivor, a damaged tail kept),
    // and what was repaired; one line each, for the user.
    std::vector<std::string> notes;
    std::string error; // the run-only trace could not be written
};

// Exit code as a shell reports it: the code, or 128 + signal if the target was killed.
int exitCodeFromWaitStatus(int status);

class Launcher {
public:
    Launcher() = default;
    // A target still running is sent SIGTERM (its group), SIGKILL after 2 s, and reaped.
    ~Launcher();
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

    // Validates the options, finds the collector (unless !options.inject), resolves the command,
    // checks that the output can be written (record/output_check.h) and spawns it. Call it from a
    // thread that lives as long as the run (the tie to the target fires when the calling thread
    // ends: record/spawn_target.h); strata-cli's and the GUI's main threads do.
    bool start(const RecordOptions& options, std::string* error);
    pid_t pid() const { return pid_; }
    // The target's process group (its pid) when options.ownProcessGroup, else 0.
    pid_t processGroup() const { return ownGroup_ && pid_ > 0 ? pid_ : 0; }
    // The run's token, in the target's $STRATA_RUN_ID (contract/collector_env.h: kRunId).
    const std::string& runId() const { return runId_; }
    bool running() const { return pid_ > 0 && !finished_; }
    // Blocks until the target exits; returns exitCodeFromWaitStatus. Safe to call again.
    int wait();
    // Non-blocking: true (and *exitCode) once the target has exited.
    bool poll(int* exitCode);
    // e.g. the GUI's Stop: SIGINT, then SIGTERM, SIGKILL; recorded in the run's stopSignals.
    // Sent to the target's whole process group (its children too), also after the target itself
    // exited while groupAlive(); with a shared group, to the target alone while it runs.
    void sendSignal(int sig);
    // The target runs, or (own group) a process of its group does (record/process_group.h).
    bool groupAlive() const;
    // With options.captureOutput: the read ends of the target's stdout and stderr pipes (close-
    // on-exec, blocking; EOF once the target and its children closed them), else -1. Owned by
    // the launcher, closed by its destructor.
    int outputFd() const { return outputFd_; }
    int errorFd() const { return errorFd_; }

    // What is being run: filled by start(), the exit and duration once wait()/poll() saw it.
    const RunInfo& run() const { return run_; }
    // After the target exited: appends the Run record to each trace file of the run
    // (traceFiles()), or, when there is none, writes one holding it (and the reason, and the run
    // id) at the output path expanded for the target's pid. When that name is taken by a file
    // that is not the run's (another recording with the same output path got it first), nothing
    // is written and the error says so; with --force only the finished file that was there when
    // the run started may be replaced. Call once.
    RecordingResult finish();

    const std::string& outputTemplate() const { return outputTemplate_; } // absolute
    const std::string& collectorPath() const { return collector_; }
    // The run's trace files (record/run_files.h: matching the output template, changed since
    // start(), carrying this run's id), sorted by name; none without the collector.
    std::vector<std::string> traceFiles() const;

private:
    pid_t pid_ = -1;
    bool finished_ = false;
    int exitCode_ = -1;
    int outputFd_ = -1;
    int errorFd_ = -1;
    std::string outputTemplate_;
    std::string collector_;
    int64_t startedAtSec_ = 0;
    int64_t startedSteadyNs_ = 0;
    RunInfo run_;
    std::string rank_; // the target's rank ({rank} of its output path)
    std::string runId_;
    bool ownGroup_ = true;
    // With --force: the file at the target's own output path when the run started (the one the
    // user asked to overwrite); the run-only trace may replace it, and it only.
    struct EarlierFile {
        bool exists = false;
        dev_t dev = 0;
        ino_t ino = 0;
    } earlier_;

    bool spawn(const std::string& program, const RecordOptions& options,
               const std::vector<std::string>& env, std::string* error);
    void exited(int waitStatus);
    RunFileQuery query() const;
    std::string ownOutputPath() const; // the output template expanded for the target
};

} // namespace strata
