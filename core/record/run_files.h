#pragma once
// Which trace files belong to a run. The launcher gives each run a random token (makeRunId) and
// passes it to the target in $STRATA_RUN_ID (contract/collector_env.h); every process of the run
// (the target, its exec'd and forked children) inherits it, and the collector records it in each
// file it writes (metadata run_id, in the file's first chunk). A run's files are those whose names
// match its output template ({pid}, {rank}, {host} as wildcards), that changed since it started
// and that carry its token: never another run's, whatever their names or times (runs one after
// the other in the same second, ranks of one job writing side by side in one folder).
//
// The token alone is not proof: any process can copy it from an environment (a target that
// forges another run's $STRATA_RUN_ID, issue 42). So the collector also records, beside it, the
// writing process's ancestry as the kernel shows it when tracing starts (metadata
// process_ancestry, "pid ppid ... 1", contract/process_ancestry.h), and a file carrying the token
// is the run's only when the target's pid is in that ancestry: written by the target or by a
// process it started (through fork, exec, setsid, a new process group, closed descriptors:
// whatever a launcher like torchrun does, the parent chain stays). A file carrying the token
// without the target among its writer's ancestors is not taken, and a note says so.
//
// What this holds against, and what not: a process that copies the token (from its environment,
// another process's /proc/<pid>/environ, a job script) but runs the collector honestly cannot
// make the target its ancestor. Not covered: a process of the run that outlived its parent before
// it started tracing (a daemon that double-forks: its chain then ends at init or a subreaper; its
// file is left out, with the note); a same-user program that writes the file's bytes itself (it
// can claim any metadata; nothing a user's own processes write is proof against that user); a
// target pid reused within the instant between the target's exit and the launcher's look.
// A file from a collector older than this launcher (a token but no ancestry) is taken when its
// pid metadata is the target's, with a note.
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

// The run's files: those carrying the token and written by the target or a descendant (above).
// Beside them, a file with no intact chunk yet (the target was killed before its first flush)
// counts as the run's when its name is exactly the one the target's own pid, rank and host give
// and, for a template without {pid}, no live writer holds it (another recording's fresh file);
// and a file without a run id whose pid metadata is the target's (a collector older than the
// launcher) counts too, with a note.
RunFiles findRunFiles(const RunFileQuery& query);

} // namespace strata
