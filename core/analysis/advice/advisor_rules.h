#pragma once
// The advisor's rules (advisor.h), each adding its findings with their savings; adviseTrace()
// ranks them. Internal to core/analysis.
#include "analysis/advice/advisor.h"
#include "analysis/gaps/gap_causes.h"
#include "analysis/ops/gpu_ops.h"

#include <string>

namespace strata::advice {

struct Context {
    const Trace& trace;
    const GpuOpList& ops;
    const GapCauses& gaps;
    TimeNs basis = 0; // what savings are a share of (advisor.h)
};

// The idle time of the gaps over the threshold by cause (gap_advice.cpp), and per device the idle
// time in the shorter gaps.
void gapCauseRules(const Context& c, Advice& a);
void shortGapsRule(const Context& c, Advice& a);
// Kernels, copies and calls (advisor.cpp, occupancy.cpp).
void graphsRule(const Context& c, Advice& a);
void pageableRule(const Context& c, Advice& a);
void syncRule(const Context& c, const std::vector<TraceStep>& steps, Advice& a);
void occupancyRule(const Context& c, Advice& a);

// Whether a gap counts towards the savings: with steps (the basis is the steps' time), only one
// that starts inside a step; without, every gap.
bool countsForSaving(const GapCauses& gaps, const ExplainedGap& e);

// Text shared by the rules.
std::string pct(double share);
std::string dur(TimeNs ns);     // measured: 4 significant digits
std::string setting(TimeNs ns); // a setting (the gap threshold): as given

} // namespace strata::advice
