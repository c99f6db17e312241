#pragma once
// Loads a set of files (the ranks of a distributed job, a baseline and a candidate) at once, on
// all cores: one loadTrace() per file, as many at a time as the machine has cores, the largest
// files first (handed out as each load finishes, so one large file does not hold the others
// back). Each result is handed to the caller on the thread that loaded it, as soon as it is
// loaded; a caller that reduces it there (a digest, a summary) and lets it go keeps no more than
// `threads` traces in memory at once, and one that keeps them all needs no more than the sum of
// their single loads. Given a trace cache (io/cache/trace_cache.h), every file is read through it
// (TraceCache::load: from its entry when there is one), as a single file is: a set opened twice
// is served from the cache the second time.
#include "io/load_result.h"

#include <functional>
#include <string>
#include <vector>

namespace strata {

class TraceCache;   // io/cache/trace_cache.h
struct TraceReader; // io/trace_reader.h

struct TraceSetOptions {
    LoadOptions load;     // for every file (progress: called from several threads)
    unsigned threads = 0; // loads at a time; 0: one per core
    // readers[i], when given and not null, loads paths[i] (LoadOptions::reader: recognised
    // already, io/digest_reader.h's recogniseSetFile).
    std::vector<const TraceReader*> readers;
    // Polled before each file is handed out: true hands out no more (the files not begun get no
    // result). A load under way stops through load.progress.
    std::function<bool()> cancelled;
    // Read through this cache (it must outlive the call); null: from the files alone.
    const TraceCache* cache = nullptr;
    // With a cache: a trace it may keep (LoadResult::cacheSource) is written into it on the
    // loading thread before the result is handed over (strata-cli --cache), and storeFailed, when
    // set, is told why one could not be (from the loading threads); false leaves the writing to
    // the caller (the window writes in the background), with the result's cacheSource.
    bool storeInCache = true;
    std::function<void(const std::string& path, const std::string& why)> storeFailed;
};

// The order in which a set's files are handed out: their indices, the largest file first (one
// whose size cannot be read counts as 0 and goes last: its load then says what is wrong).
std::vector<size_t> largestFirst(const std::vector<std::string>& paths);

// One file of a set as loadTraceSet loads it: its reader and the cache as `options` say.
LoadResult loadSetFile(const std::string& path, const TraceReader* reader,
                       const TraceSetOptions& options);

// Calls use(i, result) for every paths[i], from the loading threads (several at once: `use` must
// be safe to call concurrently for different i). An exception from `use` or a load stops the
// others at their next file and is rethrown here.
void loadTraceSet(const std::vector<std::string>& paths,
                  const std::function<void(size_t, LoadResult&)>& use,
                  const TraceSetOptions& options = {});

// Every result, in the order of `paths` (a file not begun before options.cancelled: not ok(),
// no error).
std::vector<LoadResult> loadTraces(const std::vector<std::string>& paths,
                                   const TraceSetOptions& options = {});

} // namespace strata
