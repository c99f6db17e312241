#include "contract/launcher_tie.h"

#include <charconv>
#include <csignal>
#include <cstring>
#include <sys/prctl.h>
#include <unistd.h>

namespace strata {

LauncherTie tieToLauncher(const char* launcherPid) {
    LauncherTie tie;
    if (!launcherPid || !*launcherPid) return tie;
    const char* end = launcherPid + std::strlen(launcherPid);
    int64_t pid = 0;
    const auto [next, ec] = std::from_chars(launcherPid, end, pid);
    if (ec != std::errc() || next != end || pid <= 1) return tie;
    tie.launcherPid = pid;
    tie.child = int64_t(getppid()) == pid;
    if (tie.child) prctl(PR_SET_PDEATHSIG, SIGTERM);
    // Had the launcher died before the request, no signal would come: launcherGone() sees it.
    return tie;
}

bool launcherGone(const LauncherTie& tie) {
    return tie.child && int64_t(getppid()) != tie.launcherPid;
}

std::string launcherGoneText(const LauncherTie& tie) {
    return "the launcher (strata-cli record or the GUI, pid " + std::to_string(tie.launcherPid) +
           ") ended before the target: it was killed or crashed, so it could not complete this "
           "recording. The target, tied to the launcher's life, was stopped with SIGTERM, and its "
           "collector closed this file with a run record of its own (what the target's process "
           "knew: command line, working directory, start; not the environment changes)";
}

} // namespace strata
