#pragma once
// Who wrote a trace of a distributed job, and on what clock: the rank and host a trace says it
// is, and the hints about its time base that the cross-rank clock alignment
// (analysis/cross_rank.h) starts from.
//   rank   Kineto's distributedInfo {"rank": N, "world_size": W}; else the "rank" metadata a
//          Strata recording carries (the collector writes $RANK, $OMPI_COMM_WORLD_RANK,
//          $SLURM_PROCID or $PMI_RANK); else a number in the file's name (the one after "rank",
//          else the first: worker3_step_12.json -> 3, run-5.strata -> 5); else the file's index
//          in the set;
//   host   the recording's "host" metadata or its Run record's host; "" when the trace does not
//          say (Kineto JSON does not);
//   clock  Kineto's baseTimeNanoseconds (newer Kineto writes timestamps relative to it: the
//          wall clock of an event is base + ts), and whether the timestamps themselves look like
//          wall-clock time (nanoseconds since 1970 between the years 2000 and 2100, as older
//          Kineto and Strata's recordings write them).
#include "model/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata {

enum class RankSource : uint8_t { DistributedInfo, Recording, FileName, FileIndex };
const char* rankSourceName(RankSource s); // "distributedInfo", "recording", "file name", "index"
std::optional<RankSource> rankSourceFromName(std::string_view name);

struct RankIdentity {
    int64_t rank = 0;
    RankSource source = RankSource::FileIndex;
    std::string host;
    int64_t worldSize = -1; // -1: unknown
    friend bool operator==(const RankIdentity&, const RankIdentity&) = default;
};

struct ClockHints {
    std::optional<int64_t> baseTimeNs; // Kineto's baseTimeNanoseconds
    bool wallClock = false;            // the timestamps themselves look like wall-clock time
    // What to add to this trace's timestamps to put them on the common (wall) clock, when it has
    // one: baseTimeNs when the timestamps are relative, 0 when they are wall clock already.
    std::optional<TimeNs> commonBaseOffset() const;
    friend bool operator==(const ClockHints&, const ClockHints&) = default;
};

// `index`: the file's position in the set (the last resort for the rank).
RankIdentity rankIdentity(const Trace& trace, const std::string& file, int64_t index);
// The number a file name gives a rank, if any (exposed for tests).
std::optional<int64_t> rankFromFileName(const std::string& file);
// What a rank's groups and rows are called, in the window and in a set's export: "rank 3", or
// "rank 3 · node7" when the host is known.
std::string rankLabel(const RankIdentity& id);
// The labels of a set's ranks, each told apart: a label two ranks share (two files that say they
// are rank 0) gets the rank's file name, "rank 0 (run-a.json)".
std::vector<std::string> rankLabels(const std::vector<RankIdentity>& ranks,
                                    const std::vector<std::string>& files);
// Indices of `ranks` by rank label (then by position): the order ranks are listed and aligned in.
std::vector<size_t> rankOrder(const std::vector<RankIdentity>& ranks);

ClockHints clockHints(const Trace& trace);

} // namespace strata
