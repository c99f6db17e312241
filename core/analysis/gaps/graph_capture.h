#pragma once
// Where a thread captured a CUDA or HIP graph: from a cudaStreamBeginCapture
// (hipStreamBeginCapture, cuStreamBeginCapture) call to the next EndCapture call on the same
// thread. Launches made there are recorded into the graph and run no kernel until the graph is
// launched (issue 44): their kernels are not "lost", and the idle time of the capture is not the
// CPU's lateness.
#include "model/trace.h"

#include <map>
#include <utility>
#include <vector>

namespace strata {

class CaptureWindows {
public:
    // One pass over the string pool; the API calls are read only when a capture call is named.
    explicit CaptureWindows(const Trace& trace);
    bool empty() const { return windows_.empty(); }
    // The part of [from, to) inside the thread's capture windows.
    TimeNs overlap(int64_t pid, int64_t tid, TimeNs from, TimeNs to) const;
    bool contains(int64_t pid, int64_t tid, TimeNs t) const { return overlap(pid, tid, t, t + 1); }

private:
    std::map<std::pair<int64_t, int64_t>, std::vector<TimeRange>> windows_; // sorted, disjoint
};

} // namespace strata
