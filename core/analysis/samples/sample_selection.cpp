#include "analysis/samples/sample_selection.h"

namespace strata {

std::vector<SampleRows> selectSamples(const StackSamples& k, const SampleSelection& s) {
    std::vector<SampleRows> out;
    for (const SampleThread& t : k.threads) {
        if ((s.pid && t.pid != *s.pid) || (s.tid && t.tid != *s.tid)) continue;
        const auto [first, last] = k.rowsIn(t, s.range);
        if (first < last) out.push_back({&t, first, last});
    }
    return out;
}

CallsiteCounts countCallsites(const StackSamples& k, const SampleSelection& s) {
    CallsiteCounts c;
    c.samples.assign(k.callsiteParent.size(), 0);
    for (const SampleRows& r : selectSamples(k, s)) {
        uint64_t n = 0;
        const uint8_t want = s.kind ? *s.kind : k.timeKind(*r.thread);
        for (uint64_t i = r.first; i < r.last; ++i) {
            if (k.kind[i] != want) continue;
            ++c.samples[k.callsite[i]];
            ++n;
        }
        c.total += n;
        c.threads += n > 0;
    }
    return c;
}

} // namespace strata
