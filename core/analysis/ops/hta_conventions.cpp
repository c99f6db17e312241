#include "analysis/ops/hta_conventions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>

namespace strata {

namespace {

// HTA's ProfilerStepGroupingPattern: ^ProfilerStep#(\d+).
bool isProfilerStepName(std::string_view s) {
    constexpr std::string_view kPrefix = "ProfilerStep#";
    if (s.substr(0, kPrefix.size()) != kPrefix || s.size() == kPrefix.size()) return false;
    return s[kPrefix.size()] >= '0' && s[kPrefix.size()] <= '9';
}

void keepProfiledSteps(const Trace& trace, GpuOpList& list, bool us, HtaApplied& out) {
    std::vector<uint8_t> isStep(trace.strings().size(), 0);
    for (StringId id = 0; id < trace.strings().size(); ++id)
        isStep[id] = isProfilerStepName(trace.str(id));
    std::set<StringId> names;
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const Track& track : trace.tracks()) {
        if (track.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = track.slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (!isStep[c.name[i]] || isGpuKind(c.kind[i])) continue;
            names.insert(c.name[i]);
            last = std::max(last, htaStart(c.start[i], us));
        }
    }
    if (names.size() < 2) return;
    out.stepsApplied = true;
    out.lastStepStart = last;
    const size_t before = list.ops.size();
    std::erase_if(list.ops, [&](const GpuOp& op) {
        const SliceRef launch = trace.launchOf(op.ref);
        return !launch.valid() || htaStart(trace.start(launch), us) >= last;
    });
    out.dropped = before - list.ops.size();
}

// `ns` as the µs a trace's text writes ("1712195495800675.123") parsed to the nearest double.
double micros(TimeNs ns) {
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    char text[40];
    char* p = text;
    if (negative) *p++ = '-';
    p = std::to_chars(p, text + sizeof text, a / 1000).ptr;
    const unsigned frac = unsigned(a % 1000);
    *p++ = '.';
    *p++ = char('0' + frac / 100);
    *p++ = char('0' + frac / 10 % 10);
    *p++ = char('0' + frac % 10);
    double v = 0;
    std::from_chars(text, p, v);
    return v;
}

} // namespace

TimeNs htaStart(TimeNs start, bool microseconds) {
    if (!microseconds) return start;
    return TimeNs(std::ceil(micros(start))) * 1000;
}

TimeNs htaEnd(TimeNs start, TimeNs end, bool microseconds) {
    if (!microseconds) return end;
    return TimeNs(std::floor(micros(start) + micros(end - start))) * 1000;
}

HtaApplied applyHtaConventions(const Trace& trace, GpuOpList& list, HtaConventions conventions) {
    HtaApplied out;
    if (conventions.steps) keepProfiledSteps(trace, list, conventions.microseconds, out);
    if (!conventions.microseconds) return out;
    for (GpuOp& op : list.ops) {
        const TimeNs start = op.start;
        op.start = htaStart(start, true);
        op.end = htaEnd(start, op.end, true);
    }
    std::sort(list.ops.begin(), list.ops.end(), [](const GpuOp& a, const GpuOp& b) {
        return std::tie(a.device, a.stream, a.start, a.end, a.ref) <
               std::tie(b.device, b.stream, b.start, b.end, b.ref);
    });
    return out;
}

} // namespace strata
