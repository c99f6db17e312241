#pragma once
// The cross-rank analysis of a distributed job: from the ranks' digests (analysis/rank_digest.h,
// never the traces, so a cluster can reduce digests made where the traces lie), the clock
// alignment (analysis/clock_alignment.h) and, on the aligned timeline (docs/ranks.md):
//   ranks        per rank its label, host, offset and its uncertainty, kernels, GPU busy / idle;
//   steps        per step name present on the ranks: per rank its start, length, GPU busy, idle
//                and idle by cause, kernels, and the wait it caused the others; the straggler:
//                the rank the others waited for longest at the step's collectives (the sum, over
//                the instances it arrived last at, of the others' median wait), and that sum as
//                its delay; a step without a matched collective on aligned ranks names the
//                rank with the longest step instead, by how much it exceeds the median rank's;
//                per rank how late it started the step (its aligned start minus the earliest
//                aligned start of the step on any rank: what made the others wait, issue 44)
//                and the rank that started it last;
//   collectives  per matched instance: each rank's arrival (its kernel's aligned start) and end,
//                how long each waited for the last to arrive, the late rank, by how much it was
//                late (the others' median wait) and the step it belongs to (the step its
//                kernel starts in on most ranks).
// Times are nanoseconds on the aligned timeline from `origin` (the earliest aligned timestamp);
// with alignment refused, steps keep their lengths and the collectives are not compared.
#include "analysis/ranks/clock_alignment.h"
#include "analysis/ranks/collective_matching.h"
#include "analysis/ranks/rank_digest.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct CrossRankRow {
    int64_t rank = 0; // the label (unique in the set)
    std::string file, host;
    std::optional<TimeNs> offset, uncertainty;
    uint64_t kernels = 0;
    TimeNs busy = 0, idle = 0;
    size_t collectives = 0, steps = 0;
};

struct RankStep {
    size_t rank = 0;                         // index into CrossRankReport::ranks
    std::optional<TimeNs> start;             // aligned, from the origin (none: rank not aligned)
    TimeNs duration = 0, busy = 0, idle = 0; // busy, idle, kernels: summed over its devices
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    uint64_t kernels = 0;
    TimeNs causedWait = 0; // the others' median wait at the instances it arrived last at
    // start - the earliest aligned start of the step (none: rank not aligned)
    std::optional<TimeNs> lateStart;
};

struct CrossRankStep {
    std::string name;
    std::vector<RankStep> ranks;     // by rank index
    std::optional<size_t> straggler; // index into CrossRankReport::ranks
    TimeNs delay = 0;
    bool byCollectives = false; // straggler from the collective waits (else from step lengths)
    TimeNs medianDuration = 0;
    size_t collectives = 0; // matched instances compared in it
    // The aligned rank that started the step last, when it started later than another
    // (index into CrossRankReport::ranks; the lowest label of a tie), and by how much.
    std::optional<size_t> lastToStart;
    TimeNs startedLate = 0;
};

struct CrossRankCollective {
    std::string group, op, name; // name: the kernel's, on the first member
    int64_t index = 0;
    std::vector<size_t> ranks;   // indices into CrossRankReport::ranks, aligned members only
    std::vector<TimeNs> arrival; // aligned kernel starts, from the origin
    std::vector<TimeNs> end;     // aligned kernel ends, from the origin
    std::vector<TimeNs> wait;    // last arrival - own arrival
    size_t lateRank = 0;         // index into CrossRankReport::ranks
    TimeNs lateBy = 0;           // median of the others' waits
    TimeNs maxWait = 0;
    std::string step; // "" when in none
};

struct CrossRankReport {
    std::vector<CrossRankRow> ranks; // in the digests' order
    ClockAlignment alignment;
    TimeNs origin = 0;                // absolute aligned time of the earliest aligned timestamp
    std::vector<CrossRankStep> steps; // by start
    std::vector<CrossRankCollective> collectives; // by arrival of the first rank
    std::vector<std::string> warnings;            // the set's (rank labels, matching)
};

CrossRankReport crossRank(const std::vector<RankDigest>& ranks, const AlignRequest& request);

} // namespace strata
