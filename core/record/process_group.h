#pragma once
// The target's process group. The launcher starts the target as the leader of a process group of
// its own (setpgid before exec, record/spawn_target.h; record_options.h: ownProcessGroup), so that
// Stop, a quitting GUI and strata-cli's forwarded signals reach every process of the run (the
// target's children, and theirs, unless they left the group) and nothing else. docs/recording.md,
// "Stopping a run", tells users the same.
#include <string>
#include <sys/types.h>

namespace strata {

// kill(-pgid, sig): true if at least one process of the group was signalled.
bool signalProcessGroup(pid_t pgid, int sig);

// Whether a process of group `pgid` is still running, i.e. one that is not a zombie (a zombie
// whose parent never reaps it, e.g. under an init that reaps nothing, would otherwise keep the
// group alive for ever). Reads /proc where it exists, else asks kill(-pgid, 0).
bool processGroupAlive(pid_t pgid);

// "SIGINT" for SIGINT; the number for a signal without a name.
std::string signalName(int sig);

// Whether this process is the foreground job of its controlling terminal (/dev/tty), the one
// Ctrl-C and Ctrl-Z reach. False without a controlling terminal (a service, CI, nohup, setsid)
// and for a background job (`cmd &`).
bool isForegroundJob();

} // namespace strata
