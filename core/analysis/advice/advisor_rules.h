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
    TimeNs basis = 0;      // what savings are a share of (advisor.h)
    bool compiled = false; // the trace already runs under torch.compile (usesTorchCompile)
};

// Whether the trace shows torch.compile at work: a "Torch-Compiled Region", a CompiledFunction,
// a TorchDynamo frame (one pass over the string pool).
bool usesTorchCompile(const Trace& trace);
// What to say for launches that cost more than their kernels: fuse or graph them, or, under
// torch.compile already, compile with mode="reduce-overhead" (CUDA graphs).
std::string fewerLaunchesAdvice(const Context& c);

// The idle time of the gaps over the threshold by cause (gap_advice.cpp), and per device the idle
// time in the shorter gaps.
void gapCauseRules(const Context& c, Advice& a);
void shortGapsRule(const Context& c, Advice& a);
// Kernels, copies and calls (advisor.cpp, occupancy.cpp).
void graphsRule(const Context& c, Advice& a);
void pageableRule(const Context& c, Advice& a);
void syncRule(const Context& c, const std::vector<TraceStep>& steps, Advice& a);
void occupancyRule(const Context& c, Advice& a);

// The time the launching threads spent blocked in asynchronous copies to or from pageable memory
// (host_waits.h) inside the gaps that count for savings and whose cause the trace shows.
TimeNs pageableBlockedWhileIdle(const Context& c);

// Whether a gap counts towards the savings: with steps (the basis is the steps' time), only one
// that starts inside a step; without, every gap.
bool countsForSaving(const GapCauses& gaps, const ExplainedGap& e);

// Text shared by the rules.
std::string pct(double share);
std::string dur(TimeNs ns);     // measured: 4 significant digits
std::string setting(TimeNs ns); // a setting (the gap threshold): as given

} // namespace strata::advice
