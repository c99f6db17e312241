#pragma once
// HTA's idle breakdown (analysis/gaps/idle_breakdown.h) and launch queue
// (analysis/ops/launch_queue.h) as `strata-cli idle --json` prints them (the command adds the
// file and the timing):
//   {"kernel_delay_us", "queue_limit", "not_launched",
//    "streams": [{"device", "stream", "ops", "without_launch",
//                 "idle": {"host_wait_us", "kernel_wait_us", "other_us", "total_us",
//                          "host_wait_intervals", "kernel_wait_intervals", "other_intervals"},
//                 "queue": {"launches", "max_length", "time_at_max_us", "time_at_limit_us",
//                           "series": [[time_us, length], ...]}}],
//    "rule": {"idle", "host_wait", "kernel_wait", "other", "queue"}}
// by (device, stream); a stream with ops but no counted launch has a queue of zeros and an empty
// series; series times relative to the trace start; "series" left out when `series` is false.
#include "analysis/gaps/idle_breakdown.h"
#include "analysis/ops/launch_queue.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json idleBreakdownToJson(const Trace& trace, const IdleBreakdown& idle,
                                   const LaunchQueue& queue, bool series = true);

} // namespace strata
