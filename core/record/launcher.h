#pragma once
// The one launcher (strata-cli record and the GUI's Launch dialog): finds the collector, builds
// the injected environment, spawns the target without a shell (posix_spawn), waits, forwards
// its exit code and lists the trace files the target and its exec'd children wrote.
#include "record/record_options.h"

#include <csignal>
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace strata {

// Where the collector is looked for, in order: options.collector, $STRATA_COLLECTOR, then next
// to the running binary: <dir>/libstrata_collector.so, <dir>/../lib/strata/, and the build
// tree's <dir>/../kernels/collector/. Returns the absolute path, or "" with an error that lists
// every place it looked.
std::string findCollector(const RecordOptions& options, std::string* error);

// Resolves argv[0] like execvp (PATH search when it has no '/'). Errors say "command not found"
// (with the PATH searched) or "not executable" / "is a directory".
std::string resolveCommand(const std::string& name, const std::string& workingDirectory,
                           std::string* error);

// `base` ("NAME=value" strings, e.g. environ) with the collector's variables set/replaced.
std::vector<std::string> buildTargetEnvironment(const RecordOptions& options,
                                                const std::string& collectorPath,
                                                const std::string& outputTemplate,
                                                const char* const* base);

// Exit code as a shell reports it: the code, or 128 + signal if the target was killed.
int exitCodeFromWaitStatus(int status);

class Launcher {
public:
    Launcher() = default;
    ~Launcher(); // waits for a still-running target after sending it SIGTERM
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

    // Validates the options, finds the collector, resolves the command and spawns it.
    bool start(const RecordOptions& options, std::string* error);
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0 && !finished_; }
    // Blocks until the target exits; returns exitCodeFromWaitStatus. Safe to call again.
    int wait();
    // Non-blocking: true (and *exitCode) once the target has exited.
    bool poll(int* exitCode);
    void sendSignal(int sig); // e.g. the GUI's Stop: SIGINT, then SIGTERM
    // With options.captureOutput: the read end of the target's stdout+stderr pipe (close-on-
    // exec, blocking; EOF once the target and its children closed it), else -1. Owned by the
    // launcher, closed by its destructor.
    int outputFd() const { return outputFd_; }

    const std::string& outputTemplate() const { return outputTemplate_; } // absolute
    const std::string& collectorPath() const { return collector_; }
    // Trace files matching the output template written since start(), sorted by name.
    std::vector<std::string> traceFiles() const;

private:
    pid_t pid_ = -1;
    bool finished_ = false;
    int exitCode_ = -1;
    int outputFd_ = -1;
    std::string outputTemplate_;
    std::string collector_;
    int64_t startedAtSec_ = 0;
};

// While alive, SIGINT/SIGTERM/SIGHUP sent to this process (kill, not the terminal's Ctrl-C,
// which reaches the target directly as it shares the foreground process group) are forwarded
// to `target`; the launcher itself keeps running to collect the files. One at a time.
class SignalForwarder {
public:
    explicit SignalForwarder(pid_t target);
    ~SignalForwarder();
    SignalForwarder(const SignalForwarder&) = delete;
    SignalForwarder& operator=(const SignalForwarder&) = delete;

private:
    struct sigaction old_[3]{};
};

} // namespace strata
