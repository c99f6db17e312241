#include "analysis/samples/sample_profile.h"

#include "analysis/samples/sample_period.h"

#include <algorithm>
#include <unordered_map>

namespace strata {

SampleProfile sampleProfile(const Trace& trace, const SampleSelection& selection) {
    const StackSamples& k = trace.stackSamples();
    const CallsiteCounts counts = countCallsites(k, selection);
    SampleProfile p;
    p.samples = counts.total;
    p.emptySamples = counts.samples.empty() ? 0 : counts.samples[kNoCallsite];
    p.threads = counts.threads;
    p.period = selection.kind ? samplePeriod(trace, *selection.kind) : samplePeriod(trace);
    std::unordered_map<StringId, uint32_t> indexOf; // frame -> functions index
    std::vector<uint64_t> seenAt;                   // per function: the callsite last counted
    const auto function = [&](StringId frame) {
        auto [it, added] = indexOf.try_emplace(frame, uint32_t(p.functions.size()));
        if (added) {
            p.functions.push_back({frame, 0, 0, 0, 0});
            seenAt.push_back(UINT64_MAX);
        }
        return it->second;
    };
    for (CallsiteId c = 1; c < counts.samples.size(); ++c) {
        const uint64_t n = counts.samples[c];
        if (n == 0) continue;
        p.functions[function(k.callsiteFrame[c])].self += n;
        // Each function of the stack once, however often it recurs in it.
        for (CallsiteId a = c; a != kNoCallsite; a = k.callsiteParent[a]) {
            const uint32_t f = function(k.callsiteFrame[a]);
            if (seenAt[f] == c) continue;
            seenAt[f] = c;
            p.functions[f].total += n;
        }
    }
    for (SampleFunction& f : p.functions) {
        f.selfShare = p.samples ? double(f.self) / double(p.samples) : 0;
        f.totalShare = p.samples ? double(f.total) / double(p.samples) : 0;
    }
    std::sort(p.functions.begin(), p.functions.end(),
              [&](const SampleFunction& a, const SampleFunction& b) {
                  if (a.self != b.self) return a.self > b.self;
                  if (a.total != b.total) return a.total > b.total;
                  return trace.str(a.frame) < trace.str(b.frame);
              });
    return p;
}

} // namespace strata
