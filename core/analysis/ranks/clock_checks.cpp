#include "analysis/ranks/clock_checks.h"

#include "analysis/gaps/gpu_gaps.h"
#include "analysis/ops/gpu_ops.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace strata {

namespace {

// Whether `device` was idle at `t`: before its first op, after its last, or in one of its gaps
// (sorted by (device, start); the gaps over the threshold only).
bool idleAt(const GpuGaps& g, int32_t device, TimeNs t) {
    for (const DeviceGapStats& d : g.byDevice)
        if (d.device == device && (t < d.firstStart || t >= d.lastEnd)) return true;
    auto it =
        std::upper_bound(g.deviceGaps.begin(), g.deviceGaps.end(), std::make_pair(device, t),
                         [](const std::pair<int32_t, TimeNs>& x, const GpuGap& y) {
                             return x.first != y.device ? x.first < y.device : x.second < y.start;
                         });
    if (it == g.deviceGaps.begin()) return false;
    --it;
    return it->device == device && t >= it->start && t < it->end;
}

// The shift in µs as --gpu-shift-us takes it: to the ns, without trailing zeros.
std::string shiftUs(TimeNs ns) {
    char b[48];
    std::snprintf(b, sizeof b, "%.3f", double(ns) / 1000.0);
    std::string s = b;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

} // namespace

ClockCheck checkClocks(const Trace& trace, const GpuOpList& ops, const GpuGaps& gaps) {
    ClockCheck c;
    bool anyDelay = false;
    for (const GpuOp& o : ops.ops) {
        const SliceRef l = trace.launchOf(o.ref);
        if (!l.valid()) continue;
        const TimeNs callStart = trace.start(l), callEnd = callStart + trace.duration(l);
        if (o.kind == SliceKind::Kernel) {
            ++c.kernelsLaunched;
            if (o.start < callStart) {
                ++c.startBeforeLaunch;
                c.mostBefore = std::max(c.mostBefore, callStart - o.start);
            }
        }
        if (!idleAt(gaps, o.device, callStart)) continue;
        const TimeNs delay = o.start - callEnd;
        ++c.idleLaunches;
        c.leastIdleDelay = anyDelay ? std::min(c.leastIdleDelay, delay) : delay;
        c.mostIdleDelay = anyDelay ? std::max(c.mostIdleDelay, delay) : delay;
        anyDelay = true;
    }
    if (c.offset() && !c.startBeforeLaunch) c.suggestedShift = -c.leastIdleDelay;
    if (c.startBeforeLaunch && !c.offset()) c.suggestedShift = c.mostBefore;
    return c;
}

std::vector<std::string> clockWarnings(const ClockCheck& c) {
    std::vector<std::string> out;
    if (c.startBeforeLaunch)
        out.push_back(
            std::to_string(c.startBeforeLaunch) + " of " + std::to_string(c.kernelsLaunched) +
            " kernel(s) start before their launch call (by up to " + formatDuration(c.mostBefore) +
            "): CPU and GPU clocks disagree, so how late a launch was (late_us) and a "
            "gap's breakdown are not reliable");
    if (c.offset())
        out.push_back("the GPU clock looks " + formatDuration(c.leastIdleDelay) +
                      " ahead of the CPU's: each of the " + std::to_string(c.idleLaunches) +
                      " ops launched while their device was idle started " +
                      formatDuration(c.leastIdleDelay) + " to " + formatDuration(c.mostIdleDelay) +
                      " after its launch call returned (a GPU starts such work within "
                      "microseconds), so gaps read as dependencies and launch latency is "
                      "overstated");
    if (c.suggestedShift)
        out.back() += "; shifting the GPU ops by " + std::string(c.suggestedShift > 0 ? "+" : "-") +
                      formatDuration(std::abs(c.suggestedShift)) +
                      " would bring the clocks together (strata-cli --gpu-shift-us " +
                      shiftUs(c.suggestedShift) + ")";
    return out;
}

} // namespace strata
