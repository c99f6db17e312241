#pragma once
// What HTA's loader does to a trace before any of its analyses (hta/common/trace.py and
// trace_parser.py), for figures compared with HTA's own (strata-cli idle --hta-steps, --hta-us).
// Strata's own figures never apply them.
//   steps         (_filter_irrelevant_gpu_kernels) when the trace holds two or more differently
//                 named ProfilerStep#N slices, only the GPU ops launched (a CPU event with their
//                 correlation) before the LAST ProfilerStep starts are kept: the last step's
//                 work and every op without a launch are left out; with fewer steps, all kept;
//   microseconds  (round_down_time_stamps) a trace with fractional µs is cut to whole µs: each
//                 start rounded up, each end (start + dur) down; an op shorter than a µs may end
//                 before it starts (HTA keeps it so). HTA does it on doubles: ts and dur as
//                 parsed from the text, end = ts + dur, then ceil / floor. At epoch timestamps
//                 (~1.7e15 µs, where a double's step is 0.25 µs) that is not the exact rounding
//                 (a start 0.1 µs past a whole µs is parsed as the whole µs and stays there), so
//                 the arithmetic is repeated here on the same doubles (ns printed as the µs text
//                 and parsed, correctly rounded, as Python parses it).
#include "analysis/ops/gpu_ops.h"
#include "model/trace.h"

#include <cstdint>

namespace strata {

struct HtaConventions {
    bool steps = false;
    bool microseconds = false;
};

struct HtaApplied {
    bool stepsApplied = false; // two or more ProfilerStep#N names (steps only)
    TimeNs lastStepStart = 0;  // the start of the last ProfilerStep (stepsApplied only)
    uint64_t dropped = 0;      // ops left out
};

// Applies `conventions` to `ops` (kept sorted as collectGpuOps sorts them).
HtaApplied applyHtaConventions(const Trace& trace, GpuOpList& ops, HtaConventions conventions);

// A start as HTA loads it under `microseconds`: ceil of the µs double (else `start`).
TimeNs htaStart(TimeNs start, bool microseconds);
// An end as HTA loads it under `microseconds`: floor of the doubles start + duration in µs.
TimeNs htaEnd(TimeNs start, TimeNs end, bool microseconds);

} // namespace strata
