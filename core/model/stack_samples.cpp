#include "model/stack_samples.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace strata {

std::string_view stackKindName(uint8_t kind) {
    switch (kind) {
    case uint8_t(StackKind::Python):
        return "python";
    case uint8_t(StackKind::Native):
        return "native";
    case uint8_t(StackKind::ApiCall):
        return "api_call";
    default:
        return "unknown";
    }
}

uint8_t StackSamples::timeKind(const SampleThread& t) const {
    const void* python =
        std::memchr(kind.data() + t.first, int(StackKind::Python), size_t(t.count));
    return uint8_t(python ? StackKind::Python : StackKind::Native);
}

const SampleThread* StackSamples::thread(int64_t pid, int64_t tid) const {
    const auto it =
        std::lower_bound(threads.begin(), threads.end(), std::pair{pid, tid},
                         [](const SampleThread& t, const std::pair<int64_t, int64_t>& k) {
                             return std::pair{t.pid, t.tid} < k;
                         });
    return it != threads.end() && it->pid == pid && it->tid == tid ? &*it : nullptr;
}

const SampleThread* StackSamples::threadByTid(int64_t tid) const {
    for (const SampleThread& t : threads)
        if (t.tid == tid) return &t;
    return nullptr;
}

std::pair<uint64_t, uint64_t> StackSamples::rowsIn(const SampleThread& t, TimeRange range) const {
    const auto b = ts.begin() + std::ptrdiff_t(t.first), e = ts.begin() + std::ptrdiff_t(t.end());
    const auto lo = std::lower_bound(b, e, range.start);
    const auto hi = std::lower_bound(lo, e, range.end);
    return {uint64_t(lo - ts.begin()), uint64_t(hi - ts.begin())};
}

std::vector<StringId> StackSamples::stack(CallsiteId c) const {
    std::vector<StringId> out;
    for (; c != kNoCallsite && c < callsiteParent.size(); c = callsiteParent[c])
        out.push_back(callsiteFrame[c]);
    std::reverse(out.begin(), out.end());
    return out;
}

TimeNs StackSamples::medianInterval() const {
    std::vector<TimeNs> gaps;
    for (const SampleThread& t : threads)
        for (uint64_t i = t.first + 1; i < t.end(); ++i)
            if (ts[i] > ts[i - 1]) gaps.push_back(ts[i] - ts[i - 1]);
    if (gaps.empty()) return 0;
    const auto mid = gaps.begin() + std::ptrdiff_t(gaps.size() / 2);
    std::nth_element(gaps.begin(), mid, gaps.end());
    return *mid;
}

size_t StackSamples::memoryBytes() const {
    return callsiteParent.capacity() * sizeof(CallsiteId) +
           callsiteFrame.capacity() * sizeof(StringId) + ts.capacity() * sizeof(TimeNs) +
           callsite.capacity() * sizeof(CallsiteId) + kind.capacity() +
           threads.capacity() * sizeof(SampleThread);
}

} // namespace strata
