#pragma once
// A process's ancestry: its pid and its parents' up the tree, as /proc shows them now. The
// collector writes it beside the run id (contract/collector_env.h: kMetaAncestry), and the
// launcher adopts a file carrying its run id only when its target is among the writer's
// ancestors (core/record/run_files.h). Plain std + POSIX (the collector compiles it too).
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// "4242 4100 1": `pid` (default: this process), its parent, theirs, ... up to a process whose
// parent is 0 (init, or the root of a pid namespace) or that /proc no longer shows; at most 256
// pids. Empty if /proc/<pid>/stat cannot be read.
std::string processAncestry(int64_t pid = 0);

// Whether `pid` is one of the pids in `ancestry` (as processAncestry writes it).
bool ancestryContains(std::string_view ancestry, int64_t pid);

} // namespace strata
