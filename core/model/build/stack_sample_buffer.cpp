#include "model/build/stack_sample_buffer.h"

#include <algorithm>
#include <numeric>

namespace strata {

void StackSampleBuffer::add(int64_t pid, int64_t tid, TimeNs ts, CallsiteId callsite,
                            uint8_t kind) {
    if (last_ == SIZE_MAX || threads_[last_].pid != pid || threads_[last_].tid != tid) {
        auto [it, added] = index_.try_emplace({pid, tid}, threads_.size());
        if (added) {
            threads_.emplace_back();
            threads_.back().pid = pid;
            threads_.back().tid = tid;
        }
        last_ = it->second;
    }
    Rows& r = threads_[last_];
    r.ts.push_back(ts);
    r.callsite.push_back(callsite);
    r.kind.push_back(kind);
}

std::vector<std::pair<int64_t, int64_t>> StackSampleBuffer::threadKeys() const {
    std::vector<std::pair<int64_t, int64_t>> keys;
    for (const Rows& r : threads_) keys.emplace_back(r.pid, r.tid);
    return keys;
}

TimeRange StackSampleBuffer::finish(StackSamples& out, std::vector<std::string>& warnings) {
    std::sort(threads_.begin(), threads_.end(), [](const Rows& a, const Rows& b) {
        return std::pair{a.pid, a.tid} < std::pair{b.pid, b.tid};
    });
    size_t total = 0, outOfRange = 0;
    for (const Rows& r : threads_) total += r.ts.size();
    out.ts.reserve(total);
    out.callsite.reserve(total);
    out.kind.reserve(total);
    TimeRange span{INT64_MAX, INT64_MIN};
    std::vector<uint32_t> order;
    for (Rows& r : threads_) {
        // Usually in time order already (one sampler per thread); a stable sort otherwise.
        order.resize(r.ts.size());
        std::iota(order.begin(), order.end(), 0u);
        if (!std::is_sorted(r.ts.begin(), r.ts.end()))
            std::stable_sort(order.begin(), order.end(),
                             [&](uint32_t a, uint32_t b) { return r.ts[a] < r.ts[b]; });
        SampleThread t{r.pid, r.tid, out.ts.size(), 0};
        for (const uint32_t i : order) {
            if (!timeInRange(r.ts[i])) {
                ++outOfRange;
                continue;
            }
            out.ts.push_back(r.ts[i]);
            out.callsite.push_back(r.callsite[i]);
            out.kind.push_back(r.kind[i]);
        }
        t.count = out.ts.size() - t.first;
        if (t.count == 0) continue;
        span.start = std::min(span.start, out.ts[t.first]);
        span.end = std::max(span.end, out.ts[t.end() - 1]);
        out.threads.push_back(t);
    }
    if (outOfRange)
        warnings.push_back("skipped " + std::to_string(outOfRange) +
                           " stack samples whose time is out of range (beyond +-2^62 ns)");
    threads_.clear();
    index_.clear();
    last_ = SIZE_MAX;
    return span;
}

} // namespace strata
