#include "analysis/trace_steps.h"

#include <algorithm>
#include <cctype>

namespace strata {

namespace {

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(uint8_t(s[i])) != std::tolower(uint8_t(prefix[i]))) return false;
    return true;
}

} // namespace

bool isStepName(std::string_view name, const std::string& prefix) {
    return startsWithNoCase(name, prefix.empty() ? std::string_view("ProfilerStep#") : prefix);
}

std::vector<TraceStep> findSteps(const Trace& t, const std::string& prefix) {
    const std::string p = prefix.empty() ? "ProfilerStep#" : prefix;
    // The names that qualify, once (a trace has far fewer names than slices).
    std::vector<uint8_t> match(t.strings().size(), 0);
    for (StringId id = 0; id < t.strings().size(); ++id) match[id] = isStepName(t.str(id), p);
    std::vector<TraceStep> steps;
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (!match[c.name[i]] || isGpuKind(c.kind[i])) continue;
            steps.push_back({std::string(t.str(c.name[i])), c.start[i], c.end(i), {ti, i}});
        }
    }
    std::sort(steps.begin(), steps.end(), [](const TraceStep& a, const TraceStep& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    // Outermost only: drop a step inside the previous kept one.
    std::vector<TraceStep> out;
    for (TraceStep& s : steps)
        if (out.empty() || s.start >= out.back().end) out.push_back(std::move(s));
    return out;
}

} // namespace strata
