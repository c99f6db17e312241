#pragma once
// What the cross-rank analysis (analysis/cross_rank.h) needs of one rank's trace, and nothing
// more: a few KB whatever the trace's size, so that a job's ranks can be reduced where they lie
// and only the digests combined (docs/ranks.md; JSON in analysis/json/rank_digest_json.h). Plain
// data, in the trace's own clock (ns); made from one TraceAnalysis, so every figure in it is the
// one the single-trace views and commands show:
//   identity     rank, host, world size (analysis/rank_identity.h);
//   clock        the time-base hints (baseTimeNanoseconds, wall-clock timestamps) and the
//                trace's bounds;
//   totals       kernels, kernel time, GPU busy and idle over the devices (gap_causes.h's
//                DeviceGapStats);
//   collectives  every collective kernel with its process group, stream, sequence, start and end
//                (analysis/collectives.h), by start;
//   steps        per step (analysis/trace_steps.h: ProfilerStep#N or the settings' prefix) its
//                span and, per device, GPU busy, idle, the idle of the gaps over the threshold by
//                cause (gap_causes.h's StepGaps: the same numbers strata-cli gaps prints) and the
//                kernels that start in it;
//   step roles   each step's time by role and its comm/compute overlap under the TensorBoard
//                plugin's rule (analysis/ops/step_roles.h: the analysis's stepRoles, its own
//                steps stretched to their device work), summed per rank by
//                analysis/ranks/rank_step_roles.h; empty in a digest written before issue 46;
//   warnings     the trace's own (loading) and the gap analysis's (clock skew, capture window).
#include "analysis/gaps/gap_causes.h"
#include "analysis/ops/collectives.h"
#include "analysis/ops/step_roles.h"
#include "analysis/ranks/rank_identity.h"
#include "analysis/trace_analysis.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct DigestDeviceStep {
    int32_t device = -1;
    TimeNs busy = 0, idle = 0; // busy + idle = the step's length
    // The gaps over the threshold that start in the step, per cause (GapCause order): their
    // count and idle time.
    std::array<uint64_t, kGapCauseCount> gapsByCause{};
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    uint64_t kernels = 0; // that start in the step
    friend bool operator==(const DigestDeviceStep&, const DigestDeviceStep&) = default;
};

struct DigestStep {
    std::string name;
    TimeNs start = 0, end = 0;
    std::vector<DigestDeviceStep> devices; // by device
    friend bool operator==(const DigestStep&, const DigestStep&) = default;
};

struct RankDigest {
    // The JSON serialisation's version (analysis/rank_digest_json.h); raised whenever a field's
    // meaning changes.
    static constexpr int kVersion = 1;
    std::string file;
    RankIdentity identity;
    ClockHints clock;
    TimeRange bounds;          // the trace's first and last timestamps
    TimeNs gapThreshold = 0;   // the settings the figures were made with
    std::string stepPrefix;    // "" = ProfilerStep#
    uint64_t kernels = 0;      // kernels in the trace
    TimeNs kernelTime = 0;     // their summed durations
    TimeNs busy = 0, idle = 0; // GPU busy / idle, summed over devices (first op..last end)
    std::vector<CollectiveKernel> collectives; // by start
    std::vector<DigestStep> steps;             // by start
    StepRoles stepRoles;                       // the TensorBoard plugin's steps, by start
    std::vector<std::string> warnings;
    friend bool operator==(const RankDigest&, const RankDigest&) = default;
};

// One file of a set reduced to its rank digest, or why it could not be ("FILE: why") and which
// file that was (the trace a digest of its error names; empty: the one asked for). JSON:
// analysis/json/rank_digest_json.h; made for a set by io/set/digest_set.h.
struct DigestOutcome {
    std::optional<RankDigest> digest;
    std::string error;
    std::string file;
};

// The digest of `analysis` (its whole trace; its settings give the threshold and the steps).
// `index` is the file's position in the set (the rank when nothing else says it).
RankDigest digestTrace(const TraceAnalysis& analysis, const std::string& file, int64_t index);

} // namespace strata
