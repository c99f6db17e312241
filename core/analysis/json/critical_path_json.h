#pragma once
// HTA's critical path of a window (analysis/critical_path/critical_path.h) as
// `strata-cli critical-path --json` prints it (the command adds the file and the timing):
//   {"ok", "error", "window": {"start_us", "end_us"}, "events",
//    "graph": {"nodes", "edges", "edges_by_type": {"operator", "dependency",
//              "kernel_launch_delay", "kernel_kernel_delay", "sync_dependency"}},
//    "length_us", "by_bound_us": {bound: µs}, "summary_percent": {bound: %},
//    "path": [{"from": point, "to": point, "type", "delay_us", "bound", "attributed"}],
//    "rule"}
// A point is {"name", "time_us", "point": "start" | "end", "pid", "tid"} (tid: the stream for a
// GPU op); "attributed" the name of the event the edge's time belongs to (null for none); times
// relative to the trace start; bounds by HTA's names ("" for dependency and sync edges, as
// HTA's summary lists them). summary_percent is HTA's summary(): each bound's share of the sum
// of the path's weights.
#include "analysis/critical_path/critical_path.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json criticalPathToJson(const Trace& trace, const CriticalPath& path);

} // namespace strata
