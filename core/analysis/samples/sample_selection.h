#pragma once
// Which stack samples an analysis of samples looks at (analysis/samples/): those at a time in the
// range (a sample belongs to [start, end) when start <= ts < end, as a slice by its start), of
// one thread or of all, of one kind or of all.
#include "analysis/analysis_range.h"
#include "model/stack_samples.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strata {

struct SampleSelection {
    TimeRange range = wholeTrace();
    std::optional<int64_t> pid; // with tid: one thread; alone: one process
    std::optional<int64_t> tid; // without pid: every thread of that tid (usually one)
    // StackKind; unset: each thread's timeKind() (its Python stacks where it has any, else its
    // native ones; never ApiCall)
    std::optional<uint8_t> kind;
};

// The sample rows [first, last) of each selected thread, in thread order.
struct SampleRows {
    const SampleThread* thread;
    uint64_t first, last;
};
std::vector<SampleRows> selectSamples(const StackSamples& samples, const SampleSelection& s);

// How many selected samples end in each callsite (index: CallsiteId; [0]: empty stacks), and
// how many threads have any.
struct CallsiteCounts {
    std::vector<uint64_t> samples;
    uint64_t total = 0;
    uint32_t threads = 0;
};
CallsiteCounts countCallsites(const StackSamples& samples, const SampleSelection& s);

} // namespace strata
