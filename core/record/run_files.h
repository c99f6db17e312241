#pragma once
// Which trace files belong to a run. The launcher gives each run a random token (makeRunId) and
// passes it to the target in $STRATA_RUN_ID (contract/collector_env.h); every process of the run
// (the target, its exec'd and forked children) inherits it, and the collector records it in each
// file it writes (metadata run_id, in the file's first chunk). A run's files are those whose names
// match its output template ({pid}, {rank}, {host} as wildcards), that changed since it started
// and that carry its token: never another run's, whatever their names or times (runs one after
// the other in the same second, ranks of one job writing side by side in one folder).
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// 32 hex digits from the kernel's random source (getrandom), with the pid and the clock mixed in
// should it fail.
std::string makeRunId();

struct RunFileQuery {
    std::string outputTemplate; // absolute, {time} filled in
    int64_t startedAtSec = 0;   // the run's start (wall clock, seconds)
    std::string runId;
    int64_t targetPid = 0;  // the target's pid: the name its own file has
    std::string rank = "0"; // the target's {rank}
};

struct RunFiles {
    std::vector<std::string> files; // sorted
    // Files the run wrote that could not be confirmed as its own, one line each, for the user.
    std::vector<std::string> notes;
};

// The run's files. Beside the files carrying the token, a file with no intact chunk yet (the
// target was killed before its first flush) counts as the run's when its name is exactly the one
// the target's own pid, rank and host give; and a file without a run id whose pid metadata is the
// target's (a collector older than the launcher) counts too, with a note.
RunFiles findRunFiles(const RunFileQuery& query);

} // namespace strata
