#pragma once
// Watching processes the tests did not start themselves (a target's children, a group's members)
// through /proc, read by hand, independently of what Strata reads there; waits poll for the
// event with a "does not hang" bound, never a speed bound.
#include <QString>

#include <sys/types.h>
#include <vector>

namespace strata::test {

// Whether `pid` still runs: /proc/<pid>/stat exists and its state is not zombie.
bool running(pid_t pid);

// The parent of `pid` (/proc/<pid>/stat), or -1 once it is gone.
pid_t parentOf(pid_t pid);

// The numbers in the file at `path`, one a line (pids a test program wrote), once there are
// `count` (or what there is after `ms`).
std::vector<pid_t> waitForPids(const QString& path, int count, int ms = 10000);

// Whether every one of `pids` has ended within `ms`.
bool allGoneWithin(const std::vector<pid_t>& pids, int ms);

} // namespace strata::test
