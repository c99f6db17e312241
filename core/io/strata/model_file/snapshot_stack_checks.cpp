// checkStackSamples: a model file's stack samples checked as TraceBuilder::build() leaves them
// (io/snapshot/snapshot_checks.h).
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_checks.h"
#include "model/stack_samples.h"

#include <cinttypes>
#include <utility>

namespace strata::snapshot {

Problem checkStackSamples(const StackSamples& k, size_t strings, TimeRange bounds) {
    const size_t callsites = k.callsiteParent.size();
    if (callsites == 0 || k.callsiteFrame.size() != callsites)
        return problemAt(0, 0, 0, "the callsite columns' sizes disagree");
    if (k.callsiteParent[0] != kNoCallsite || k.callsiteFrame[0] != 0)
        return problemAt(StackCallsiteParents, 0, 0, "callsite 0 is not the empty stack");
    for (size_t c = 1; c < callsites; ++c) {
        if (k.callsiteParent[c] >= c)
            return problemAt(StackCallsiteParents, 0, c,
                             "callsite %zu: parent %u is not a callsite before it", c,
                             unsigned(k.callsiteParent[c]));
        if (k.callsiteFrame[c] >= strings)
            return problemAt(StackCallsiteFrames, 0, c, "callsite %zu: a frame that is no string",
                             c);
    }
    const size_t n = k.ts.size();
    if (k.callsite.size() != n || k.kind.size() != n)
        return problemAt(0, 0, 0, "the stack sample columns' sizes disagree");
    uint64_t next = 0;
    for (size_t i = 0; i < k.threads.size(); ++i) {
        const SampleThread& t = k.threads[i];
        if (i && !(std::pair{k.threads[i - 1].pid, k.threads[i - 1].tid} < std::pair{t.pid, t.tid}))
            return problemAt(StackSampleThreads, 0, i, "sample thread %zu: out of (pid, tid) order",
                             i);
        if (t.first != next || t.count == 0 || t.count > n - next)
            return problemAt(StackSampleThreads, 0, i,
                             "sample thread %zu: rows that do not follow the thread before", i);
        next += t.count;
        for (uint64_t r = t.first; r < t.end(); ++r) {
            if (k.ts[r] < bounds.start || k.ts[r] > bounds.end ||
                (r > t.first && k.ts[r] < k.ts[r - 1]))
                return problemAt(StackSampleTimes, 0, r,
                                 "sample %" PRIu64 ": out of time order or out of the bounds", r);
            if (k.callsite[r] >= callsites)
                return problemAt(StackSampleCallsites, 0, r,
                                 "sample %" PRIu64 ": callsite %u of %zu", r,
                                 unsigned(k.callsite[r]), callsites);
            if (k.kind[r] > kMaxStackKind)
                return problemAt(StackSampleKinds, 0, r, "sample %" PRIu64 ": kind %u unknown", r,
                                 unsigned(k.kind[r]));
        }
    }
    if (next != n)
        return problemAt(StackSampleThreads, 0, 0,
                         "the sample threads hold %" PRIu64 " of the %zu samples", next, n);
    return {};
}

} // namespace strata::snapshot
