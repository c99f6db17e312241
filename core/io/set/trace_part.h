#pragma once
// One trace of a set (the ranks of a distributed job, a baseline and a candidate) as it goes into
// one timeline: the window's merged trace (io/set/trace_set_merge.h) and the set's Perfetto export
// (io/export/perfetto_json_export.h) alike. Its events are shifted by `offset` (added to its
// timestamps: the clock alignment's), its processes named "<label>: <name>" and its GPU devices
// "<label>: GPU <n>", with pids and tids apart from the other parts' (io/set/part_ids.h), in the
// order given.
#include "model/time.h"

#include <string>

namespace strata {

class Trace;

struct TracePart {
    const Trace* trace = nullptr;
    std::string label; // "rank 3"
    TimeNs offset = 0;
    std::string sourceFile;
};

} // namespace strata
