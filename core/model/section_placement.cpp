#include "model/section_placement.h"

#include <algorithm>

namespace strata {

SliceRef kernelOfSections(const Trace& trace, const SectionSet& set) {
    if (set.correlation < 0) return {};
    SliceRef any;
    for (SliceRef r : trace.byCorrelation(set.correlation)) {
        if (trace.kind(r) != SliceKind::Kernel) continue;
        if (set.kernel.empty() || trace.name(r) == set.kernel) return r;
        if (!any.valid()) any = r;
    }
    return any;
}

TimeNs sectionTimeShift(const Trace& trace, const SectionSet& set) {
    if (!set.hasTimes || set.samples.empty()) return 0;
    const SliceRef k = kernelOfSections(trace, set);
    if (!k.valid()) return 0;
    int64_t first = set.samples.front().startNs;
    for (const SectionSample& s : set.samples) first = std::min(first, s.startNs);
    TimeNs shift = 0;
    if (__builtin_sub_overflow(trace.start(k), first, &shift)) return 0; // damaged times
    return shift;
}

} // namespace strata
