#pragma once
// Starting the target (the launcher's spawn): fork, then in the child, before exec, only
// async-signal-safe calls: its own process group (when asked), its tie to the launcher's life
// (PR_SET_PDEATHSIG = SIGTERM, then getppid() checked against the launcher's pid, so a launcher
// that died between the fork and the request is seen and the child does not run on), its working
// directory, its standard streams, default signal handling and an empty mask; exec errors come
// back through a close-on-exec pipe. No shell.
//
// PR_SET_PDEATHSIG fires when the *thread* that forked ends, not the process: call spawnTarget
// from a thread that lives as long as the run (strata-cli's and the GUI's main thread do). An
// exec of a set-user-ID program clears it; the collector in the target sets it again
// (contract/launcher_tie.h).
#include <string>
#include <sys/types.h>
#include <vector>

namespace strata {

struct SpawnRequest {
    std::string program;           // absolute path (resolveCommand)
    std::vector<std::string> argv; // argv[0] as given
    std::vector<std::string> env;  // "NAME=value"
    std::string workingDirectory;  // empty: the launcher's
    bool ownProcessGroup = true;   // setpgid(0, 0): the target leads a group of its own
    int stdinFd = -1, stdoutFd = -1, stderrFd = -1; // dup2'd onto 0, 1, 2 when >= 0
    std::vector<int> defaultSignals; // set to SIG_DFL in the child (besides every handled one)
};

// The child's pid, or -1 with the reason in *error ("cannot start: <why>", also when exec failed;
// the child has then been reaped).
pid_t spawnTarget(const SpawnRequest& request, std::string* error);

} // namespace strata
