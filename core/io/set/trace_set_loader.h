#pragma once
// Loads a set of files (the ranks of a distributed job, a baseline and a candidate) at once, on
// all cores: one loadTrace() per file, as many at a time as the machine has cores, the largest
// files first (handed out as each load finishes, so one large file does not hold the others
// back). Each result is handed to the caller on the thread that loaded it, as soon as it is
// loaded; a caller that reduces it there (a digest, a summary) and lets it go keeps no more than
// `threads` traces in memory at once, and one that keeps them all needs no more than the sum of
// their single loads.
#include "io/load_result.h"

#include <functional>
#include <string>
#include <vector>

namespace strata {

struct TraceSetOptions {
    LoadOptions load;     // for every file (progress: called from several threads)
    unsigned threads = 0; // loads at a time; 0: one per core
};

// The order in which a set's files are handed out: their indices, the largest file first (one
// whose size cannot be read counts as 0 and goes last: its load then says what is wrong).
std::vector<size_t> largestFirst(const std::vector<std::string>& paths);

// Calls use(i, result) for every paths[i], from the loading threads (several at once: `use` must
// be safe to call concurrently for different i). An exception from `use` or a load stops the
// others at their next file and is rethrown here.
void loadTraceSet(const std::vector<std::string>& paths,
                  const std::function<void(size_t, LoadResult&)>& use,
                  const TraceSetOptions& options = {});

// Every result, in the order of `paths`.
std::vector<LoadResult> loadTraces(const std::vector<std::string>& paths,
                                   const TraceSetOptions& options = {});

} // namespace strata
