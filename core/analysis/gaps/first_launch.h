#pragma once
// A kernel's first launch that loads its code (issue 44): a launch call of 1 ms or more that is
// the first launch of its kernel (by name) in the trace, while a later launch of the same kernel
// took a tenth of that or less. The driver loaded the kernel's module inside the call (lazy
// loading, on ROCm as on CUDA 12.2+): a one-time warm-up, not launch overhead (on an AMD trace,
// a 6.5 ms hipLaunchKernel whose next launch of the kernel takes 4.7 µs).
#include "model/trace.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

class FirstLaunches {
public:
    static constexpr TimeNs kLong = 1'000'000;
    explicit FirstLaunches(const Trace& trace) : t_(trace) {}
    // Whether this launch call is such a first launch. The index of every kernel's launches is
    // built on the first call of kLong or more, never for a trace without one.
    bool isWarmUp(SliceRef call);

private:
    void build();
    const Trace& t_;
    bool built_ = false;
    // Kernel name -> its launch calls (start, duration), by start.
    std::unordered_map<StringId, std::vector<std::pair<TimeNs, TimeNs>>> launches_;
};

} // namespace strata
