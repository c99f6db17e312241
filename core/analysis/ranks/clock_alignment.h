#pragma once
// Each rank's clock offset: what to add to its timestamps to put every rank on one timeline
// (docs/ranks.md: the alignment model).
//   time         the common time base the traces carry (analysis/rank_identity.h: Kineto's
//                baseTimeNanoseconds, or wall-clock timestamps); a rank without one keeps its own
//                timestamps, said in a warning;
//   collectives  matched collective instances (analysis/collective_matching.h) end together on
//                every rank (the last rank to arrive releases them all): each rank's offset is
//                the median, over the instances it shares with the reference rank (the lowest
//                rank), of the reference's end minus its own; a rank that shares none with the
//                reference is aligned through the aligned rank it shares most instances with.
//                The reference keeps its time-base offset (or 0), so the aligned timeline is
//                its clock. Moving one rank's timestamps by d moves its offset by -d and nothing
//                else (moving the reference's moves every other offset by +d instead: the same
//                alignment, seen from its clock);
//   step:NAME    the starts of the step named NAME (analysis/trace_steps.h) coincide;
//   manual       offsets a user gave (AlignRequest::offsets), e.g. edited in the GUI's Ranks
//                dock; refused when none is given;
//   auto         the common time base when every rank has one and the matched collectives'
//                ends agree under it within the tolerance (or nothing matched, said), else the
//                collectives, saying why; but the time base is kept, with a warning that says
//                why, when aligning by the collectives would leave their ends no closer than it
//                does (their spread, below, or its median is not smaller: the matched kernels
//                cannot all be the same collective).
// Alignment is refused (no offset claimed, a warning says why) when nothing matches: no
// collective shared by two ranks for `collectives`, no rank pair with the step for `step:`, and
// for `auto` neither a common time base nor a matched collective.
// An offset that would put a rank's times beyond +-2^62 ns (model/time.h's kMaxTimeNs: a rank
// 146 years off) is dropped, that rank not aligned and a warning names it; with every digest time
// within its bounds and in range (the digest reader checks both), every aligned time is then in
// range and any two differ by what fits in TimeNs, so no difference the report takes overflows.
// The uncertainty of a rank's offset is the largest distance of one of its aligned collective
// ends from the median aligned end of that instance (over the aligned ranks in it); the
// alignment's spread is the largest, over the matched instances, of the latest minus the
// earliest aligned end (and its median over the instances). Both are the same whatever the method,
// so that the time base and the collectives can be compared.
#include "analysis/ranks/collective_matching.h"
#include "analysis/ranks/rank_digest.h"

#include <optional>
#include <string>
#include <vector>

namespace strata {

enum class AlignMethod : uint8_t { Auto, Time, Collectives, Step, Manual, None };
// "auto", "time", "collectives", "step", "manual", "none"
const char* alignMethodName(AlignMethod m);

struct AlignRequest {
    static constexpr TimeNs kDefaultTolerance = 50'000; // 50 µs
    AlignMethod method = AlignMethod::Auto;
    std::string stepName; // Step: the step whose starts are aligned
    // Manual: the offsets a user set, per rank in the digests' order (none: that rank is not
    // aligned); the uncertainty and spread are measured under them as for the other methods.
    std::vector<std::optional<TimeNs>> offsets;
    TimeNs tolerance = kDefaultTolerance;
};
// "auto", "time", "collectives" or "step:NAME"; nullopt and *error otherwise.
std::optional<AlignRequest> parseAlignRequest(std::string_view text, std::string* error);

struct ClockAlignment {
    AlignMethod requested = AlignMethod::Auto;
    AlignMethod method = AlignMethod::None;         // what was used; None: refused
    std::string stepName;                           // method Step
    size_t reference = 0;                           // index of the reference rank
    std::vector<std::optional<TimeNs>> offsets;     // per rank; none: not aligned
    std::vector<std::optional<TimeNs>> uncertainty; // per rank (none: in no matched instance)
    size_t matched = 0;                             // matched collective instances
    std::optional<TimeNs> spread;                   // of the matched ends after alignment
    std::optional<TimeNs> medianSpread;             // their median over the instances
    TimeNs tolerance = 0;
    // Auto kept the time base: the spread the collectives' alignment would have left.
    std::optional<TimeNs> refusedSpread;
    std::string reason; // how the offsets were estimated, in words
    std::vector<std::string> warnings;
    bool aligned() const { return method != AlignMethod::None; }
};

ClockAlignment alignClocks(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
                           const AlignRequest& request);

// The spread of the matched instances' aligned ends under `offsets` (ranks without an offset
// left out): the largest and the median over the instances with two or more aligned members,
// and per rank the largest distance of its ends from their instance's median end.
struct EndSpread {
    std::optional<TimeNs> max, median;
    std::vector<std::optional<TimeNs>> residual;
};
EndSpread endSpread(const std::vector<RankDigest>& ranks, const CollectiveMatch& match,
                    const std::vector<std::optional<TimeNs>>& offsets);

} // namespace strata
