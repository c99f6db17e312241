#pragma once
// Which run and process wrote a .strata file: the run_id, pid and process_ancestry metadata
// (contract/collector_env.h: kMetaRunId, kMetaPid, kMetaAncestry) of its first chunks, read
// without loading the trace. The launcher (core/record/run_files.h) completes only the files
// carrying its run's id and written by its target or a descendant of it.
#include <cstddef>
#include <cstdint>
#include <string>

namespace strata {

struct StrataFileOwner {
    bool strata = false; // a .strata 1.x file (its header says so)
    std::string runId; // empty: none in the first chunks (written before run ids, or no chunk yet)
    int64_t pid = -1;  // -1: no pid metadata in the first chunks
    std::string ancestry;    // "pid ppid ... 1" (contract/process_ancestry.h); empty: none written
    size_t intactChunks = 0; // of those read (at most maxChunks): 0 = only the header so far
};

// Reads the first `maxChunks` chunks that are whole and intact (CRC and sequence checked); a
// damaged or torn chunk ends the search. Never throws; a file that cannot be read gives
// strata == false.
StrataFileOwner readStrataFileOwner(const std::string& path, int maxChunks = 4);

} // namespace strata
