#pragma once
// What explaining a trace's gaps looks up about it, built once per analysis (gap_causes.h): the
// roles of its frames, its threads' lanes (a slice that overlaps without nesting sits on an extra
// lane of its thread, model/build/spill_lanes.h), its graph captures, its kernels' first launches
// and the union of every device's busy time (was any GPU op running anywhere then?). Belongs to
// one thread, like FrameRoles.
#include "analysis/frame_roles.h"
#include "analysis/gaps/first_launch.h"
#include "analysis/gaps/graph_capture.h"
#include "model/trace.h"

#include <map>
#include <utility>
#include <vector>

namespace strata {

struct GpuOpList;

class GapContext {
public:
    GapContext(const Trace& trace, const GpuOpList& ops);

    const Trace& trace;
    FrameRoles roles;
    FirstLaunches firstLaunches;
    CaptureWindows captures;

    // The tracks of the thread `track` belongs to (its main lane first, then its extra lanes);
    // `track` alone when it is not a thread's.
    std::vector<TrackId> lanesOf(TrackId track) const;
    // The other threads of the same process, each as its lanes.
    std::vector<const std::vector<TrackId>*> otherThreadsOf(TrackId track) const;
    // Whether a GPU op of the range (any device, any stream) ran somewhere in [from, to).
    bool gpuBusy(TimeNs from, TimeNs to) const;

private:
    std::map<std::pair<int64_t, int64_t>, std::vector<TrackId>> lanes_; // (pid, tid) -> lanes
    std::vector<TimeNs> busyStart_;  // every device's busy segments, by start
    std::vector<TimeNs> busyEndMax_; // the latest end among the segments up to each
};

} // namespace strata
