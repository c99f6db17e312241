#pragma once
// The target's side of its tie to the launcher's life (issue 42). The launcher starts the target
// with PR_SET_PDEATHSIG = SIGTERM (core/record/spawn_target.h), so a launcher that is killed
// (SIGKILL, a crash) takes its target with it instead of leaving it running orphaned. The
// collector in the target (the launcher's child) sets the same again and, when the launcher is
// gone, closes its file with what happened: the metadata launcher_died, a warning, and a Run
// record of its own (kernels/collector/collector_launcher.cpp), since no launcher will append
// one. Plain std + POSIX (the collector compiles it).
#include <cstdint>
#include <string>

namespace strata {

struct LauncherTie {
    int64_t launcherPid = 0; // $STRATA_LAUNCHER_PID; 0 if unset or not a pid
    bool child = false;      // this process is the launcher's child (the target itself)
};

// Reads `launcherPid` (the text of $STRATA_LAUNCHER_PID, or null) and, when this process is the
// launcher's child, asks the kernel for SIGTERM when the launcher dies (PR_SET_PDEATHSIG: an exec
// of a set-user-ID program clears what the launcher set) and checks the parent again after
// asking, so a launcher that died just before is seen.
LauncherTie tieToLauncher(const char* launcherPid);

// The launcher whose child this process was has gone (this process was given another parent).
// Always false for a process that was not its child.
bool launcherGone(const LauncherTie& tie);

// What the collector writes when the launcher is gone: one sentence for the trace's warnings.
std::string launcherGoneText(const LauncherTie& tie);

} // namespace strata
