#pragma once
// A set's files reduced to rank digests (analysis/ranks/rank_digest.h): the one way strata-cli
// (ranks, digest, ranks --mpi) and the window (a rank set opened, digested again after new
// analysis settings) turn files into digests, by one policy:
//   - each file is told by one read of its first bytes (io/digest_reader.h): a digest
//     `strata-cli digest` wrote is read as it is, with a warning when it was made with other
//     settings than those given (its figures follow those); a digest that holds an error gives
//     that file's error (and the file it names); the heads are read on two threads for a large
//     set (a reduce reads thousands of digests);
//   - the traces are loaded on all cores (io/set/trace_set_loader.h: `options.load` says how many
//     at a time, on one thread each or not, through which cache) and each is digested on the
//     thread that loaded it, then let go unless kept;
//   - a trace in which no event could be read is that file's error ("FILE: no event could be
//     read: nothing to digest (its first warning)"), so is a digest that throws ("FILE: cannot
//     digest: why"), and a load that throws (out of memory) is the error of every file not yet
//     done ("FILE: cannot load: why");
//   - never throws for a file; a file's index in `files` is its rank when nothing else says it.
#include "analysis/analysis_settings.h"
#include "analysis/ranks/rank_digest.h"
#include "io/cache/file_stamp.h"
#include "io/set/trace_set_loader.h"
#include "model/trace.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct DigestSetOptions {
    TraceSetOptions load; // loads at a time (threads 1: the heads on one thread too), the cache
    // Called with the fraction of the set done (0..1) as each file is (from several threads).
    std::function<void(double)> progress;
    // Polled before each file and, through the loads' progress (unless load.load.progress is
    // set), during each load: true stops; the files not done are left `cancelled`.
    std::function<bool()> cancelled;
    // Each loaded trace kept in its outcome (the window merges them); false lets it go once
    // digested, so that a set needs no more memory than its loads at a time.
    bool keepTraces = false;
    // traces[i], when given and not null, is files[i]'s trace in memory: digested as it is, no
    // file read (the window digesting the ranks it holds again).
    std::vector<std::shared_ptr<const Trace>> traces;
};

// One file's outcome.
struct SetDigest {
    // The digest, or the error ("FILE: why") and the file it is about (always set).
    DigestOutcome outcome;
    bool fromDigestFile = false; // a digest `strata-cli digest` wrote, read as it is
    // "FILE was digested with a gap threshold of N ns and step name 'P': its figures follow
    // those, not the options given", or empty.
    std::string warning;
    std::shared_ptr<const Trace> trace; // keepTraces (or given in options.traces): the trace
    // Read through a cache that left the writing to the caller (TraceSetOptions::storeInCache
    // false): the stamp to store `trace` under (TraceCache::store).
    std::optional<SnapshotSource> cacheSource;
    bool fromCache = false; // the trace was read from the cache's entry, not from the file
    bool cancelled = false; // not done: options.cancelled turned true first
};

// Every file's outcome, in the order of `files`.
std::vector<SetDigest> digestSet(const std::vector<std::string>& files,
                                 const AnalysisSettings& settings,
                                 const DigestSetOptions& options = {});

} // namespace strata
