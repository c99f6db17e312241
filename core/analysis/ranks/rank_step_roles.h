#pragma once
// Step time by role per rank of a set (issue 46; the TensorBoard plugin's "Distributed" view and
// HTA's per-rank breakdowns): each rank's roles are its own trace's (analysis/ops/step_roles.h's
// stepRoles on that trace alone, as its digest carries them: RankDigest::stepRoles), here only
// summed: over a rank's steps (all of them, or those of one name: "ProfilerStep#12"), and over
// the ranks for the whole. Role times, the comm/compute overlap and step lengths add up, so every
// sum is the sum of the figures `strata-cli breakdown` prints for each rank alone; a rank without
// the step asked for sums nothing (steps 0).
#include "analysis/ops/step_roles.h"

#include <array>
#include <string>
#include <vector>

namespace strata {

struct StepRoleSum {
    size_t steps = 0;                          // the steps summed
    TimeNs total = 0;                          // their lengths
    std::array<TimeNs, kStepRoleCount> role{}; // sums to total
    TimeNs computation = 0, communication = 0, overlap = 0, otherThanBoth = 0;
    void add(const StepRoleTimes& t);
    StepRoleSum& operator+=(const StepRoleSum& o);
    friend bool operator==(const StepRoleSum&, const StepRoleSum&) = default;
};

// `roles`' steps summed: every one (`step` empty) or those named `step`.
StepRoleSum sumStepRoles(const StepRoles& roles, const std::string& step = {});

// The names of the ranks' steps, each once, in the order they first come (rank by rank): the
// steps a per-rank view offers to choose.
std::vector<std::string> stepRoleNames(const std::vector<const StepRoles*>& ranks);

} // namespace strata
