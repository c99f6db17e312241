// The collector's side of the target's tie to the launcher's life (contract/launcher_tie.h): a
// launcher that was killed (SIGKILL) or crashed appends no Run record, so the collector in the
// target, the survivor, closes its file with one of its own and says what happened; and a target
// whose tie did not fire is stopped from here.
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "contract/output_path.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace strata {
namespace {

namespace env = collector_env;

constexpr int64_t kOrphanGraceNs = 10'000'000'000; // SIGTERM, then this long, then SIGKILL

std::string readFile(const char* path) {
    std::string out;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return out;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0 && out.size() < (1u << 20)) out.append(buf, n);
    close(fd);
    return out;
}

std::vector<std::string> argvOfThisProcess() {
    std::vector<std::string> argv;
    const std::string all = readFile("/proc/self/cmdline");
    size_t at = 0;
    while (at < all.size()) {
        const size_t nul = all.find('\0', at);
        argv.push_back(all.substr(at, nul == std::string::npos ? std::string::npos : nul - at));
        if (nul == std::string::npos) break;
        at = nul + 1;
    }
    return argv;
}

std::string readLink(const char* path) {
    char buf[4096];
    const ssize_t n = readlink(path, buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

int64_t nowNs(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// When this process started, on the wall clock: /proc/self/stat's starttime (field 22, clock
// ticks since boot) against CLOCK_BOOTTIME now. 0 if it cannot be read.
int64_t processStartUnixNs() {
    const std::string stat = readFile("/proc/self/stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos) return 0;
    unsigned long long ticks = 0;
    // After ')': state (field 3) and 18 more fields, then starttime (field 22).
    if (std::sscanf(stat.c_str() + paren + 1,
                    " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                    "%*s %llu",
                    &ticks) != 1)
        return 0;
    const long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) return 0;
    const int64_t sinceBootNs = int64_t(ticks) * (1'000'000'000 / hz);
    return nowNs(CLOCK_REALTIME) - (nowNs(CLOCK_BOOTTIME) - sinceBootNs);
}

std::string signalName(int sig) {
    const char* name = sigabbrev_np(sig);
    return name ? std::string("SIG") + name : std::to_string(sig);
}

// What the target's own process knows of the run, in the shape the launcher writes it.
RunInfo orphanRun(int fatal, int last) {
    RunInfo run;
    run.argv = argvOfThisProcess();
    run.executable = readLink("/proc/self/exe");
    run.cwd = readLink("/proc/self/cwd");
    run.pid = getpid();
    run.startUnixNs = processStartUnixNs();
    if (run.startUnixNs > 0) run.durationNs = nowNs(CLOCK_REALTIME) - run.startUnixNs;
    run.host = hostName();
    run.strataVersion = STRATA_VERSION;
    run.captured = true;
    if (fatal) run.signal = fatal;
    if (last == SIGTERM || last == SIGINT) run.stopSignals = {signalName(last)};
    return run;
}

} // namespace

bool Collector::launcherGoneReport(std::string* text, RunInfo* run) {
    if (!launcherGone(tie)) return false;
    const int fatal = fatalSignal.load();
    *text = launcherGoneText(tie);
    *text += fatal ? ". The target ended by " + signalName(fatal) + "."
                   : ". The target then exited by itself; its exit code is not known here.";
    *run = orphanRun(fatal, lastSignal.load());
    return true;
}

bool Collector::recordLauncherGone() {
    std::string text;
    RunInfo run;
    if (!launcherGoneReport(&text, &run)) return false;
    writer.metadata(env::kMetaLauncherDied, "pid " + std::to_string(tie.launcherPid));
    writer.warning(text);
    writer.run(run);
    return true;
}

void Collector::endOrphanedGroup() {
    // Only the target (the launcher's child) leading its own group: that group is the run's. In
    // a terminal's job (the launcher's group), the job's other processes are not the run's.
    if (tie.child && getpgrp() == getpid()) kill(-getpid(), SIGTERM);
}

bool Collector::watchLauncher() {
    if (!launcherGone(tie)) return false;
    const int64_t now = int64_t(clockNs());
    if (launcherGoneSinceNs == 0) {
        launcherGoneSinceNs = now;
        kill(getpid(), SIGTERM); // what the tie sends: the signal path closes the file
        return true;
    }
    if (now - launcherGoneSinceNs < kOrphanGraceNs) return false;
    // Still running: it handles or ignores SIGTERM. It must not run on without the launcher.
    fatalSignal.store(SIGKILL);
    if (!shutDown.exchange(true)) {
        flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, true);
        state.store(CollectorState::ShutDown);
    }
    endOrphanedGroup();
    kill(getpid(), SIGKILL);
    return true;
}

} // namespace strata
