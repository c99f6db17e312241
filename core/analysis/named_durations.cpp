#include "analysis/named_durations.h"

namespace strata {

std::vector<TimeNs> durationsNamed(const Trace& trace, StringId name, NamedSlices kind,
                                   TimeRange range) {
    std::vector<TimeNs> out;
    for (const Track& t : trace.tracks()) {
        const bool gpu = t.kind == TrackKind::GpuStream;
        if (kind == NamedSlices::Kernels ? !gpu : t.kind != TrackKind::Thread) continue;
        const SliceColumns& s = t.slices;
        for (SliceIndex i = 0; i < s.size(); ++i)
            if (s.name[i] == name && (!gpu || s.kind[i] == SliceKind::Kernel) &&
                range.contains(s.start[i]))
                out.push_back(s.dur[i]);
    }
    return out;
}

std::vector<TimeNs> durationsNamed(const Trace& trace, std::string_view name, NamedSlices kind,
                                   TimeRange range) {
    const StringId id = trace.strings().find(name);
    if (id == StringPool::kNotFound) return {};
    return durationsNamed(trace, id, kind, range);
}

} // namespace strata
