#include "record/spawn_target.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace strata {
namespace {

// What failed in the child before exec, sent back through the pipe.
enum Stage : int { kStageChdir = 1, kStageStreams = 2, kStageExec = 3 };
struct ChildError {
    int stage = 0;
    int error = 0;
};

// Everything the child needs, prepared before the fork (the child allocates nothing).
struct ChildPlan {
    const char* program;
    char* const* argv;
    char* const* envp;
    const char* cwd; // null: stay
    bool ownGroup;
    pid_t launcher;
    int fds[3];
    const int* defaults;
    size_t defaultCount;
    int reportFd;
};

[[noreturn]] void childFails(const ChildPlan& p, int stage) {
    const ChildError e{stage, errno};
    (void)!write(p.reportFd, &e, sizeof e);
    _exit(127);
}

// Makes `fd` the child's descriptor `target` (kept across exec).
bool placeFd(int fd, int target) {
    if (fd < 0) return true;
    if (fd == target) return fcntl(fd, F_SETFD, 0) == 0; // dup2 would keep close-on-exec
    return dup2(fd, target) == target;
}

// The child, between fork and exec: async-signal-safe calls only.
[[noreturn]] void runChild(const ChildPlan& p) {
    if (p.ownGroup) setpgid(0, 0); // a new group, led by the target (pgid = its pid)
    // Tied to the launcher's life: SIGTERM when the launcher (the forking thread) ends. A launcher
    // that died before the request would send nothing: then the child does not start at all.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != p.launcher) _exit(127);
    if (p.cwd && chdir(p.cwd) != 0) childFails(p, kStageChdir);
    for (int i = 0; i < 3; ++i)
        if (!placeFd(p.fds[i], i)) childFails(p, kStageStreams);
    // Handlers of the launcher (strata-cli's signal forwarder, the GUI's) must not run here: each
    // is set back to the default before signals are let through again; exec would reset them.
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction current;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, nullptr, &current) != 0) continue;
        bool reset = current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN;
        for (size_t i = 0; i < p.defaultCount; ++i) reset = reset || p.defaults[i] == sig;
        if (!reset) continue;
        struct sigaction dfl;
        std::memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, nullptr);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(p.program, p.argv, p.envp);
    childFails(p, kStageExec);
}

std::string describe(const ChildError& e, const SpawnRequest& r) {
    const std::string why = std::strerror(e.error);
    switch (e.stage) {
    case kStageChdir:
        return "cannot start: cannot change to the working directory " + r.workingDirectory + ": " +
               why;
    case kStageStreams:
        return "cannot start: cannot set up its standard streams: " + why;
    default:
        return "cannot start: " + why;
    }
}

} // namespace

pid_t spawnTarget(const SpawnRequest& r, std::string* error) {
    std::vector<char*> argv, envp;
    for (const auto& a : r.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const auto& e : r.env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        *error = std::string("cannot start: cannot create a pipe: ") + std::strerror(errno);
        return -1;
    }
    const ChildPlan plan{r.program.c_str(),
                         argv.data(),
                         envp.data(),
                         r.workingDirectory.empty() ? nullptr : r.workingDirectory.c_str(),
                         r.ownProcessGroup,
                         getpid(),
                         {r.stdinFd, r.stdoutFd, r.stderrFd},
                         r.defaultSignals.data(),
                         r.defaultSignals.size(),
                         report[1]};
    // No handler of ours may run in the child before it resets them: all signals are blocked
    // across the fork (those that come meanwhile reach the launcher afterwards).
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    const pid_t pid = fork();
    if (pid == 0) runChild(plan);
    const int forkError = errno;
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        *error = std::string("cannot start: ") + std::strerror(forkError);
        return -1;
    }
    if (r.ownProcessGroup) setpgid(pid, pid); // also here: the group exists when we return
    ChildError failed;
    ssize_t n;
    do {
        n = read(report[0], &failed, sizeof failed); // EOF: exec closed the pipe
    } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n != ssize_t(sizeof failed)) return pid;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    *error = describe(failed, r);
    return -1;
}

} // namespace strata
