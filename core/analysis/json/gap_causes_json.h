#pragma once
// The GPU idle gaps of a trace with their causes (analysis/gaps/gap_causes.h) as `strata-cli gaps
// --json` prints them (without the threshold and the timings, which the command adds); times in
// microseconds, places from the trace's start:
//   {"warnings", "clock": {"kernels_launched", "start_before_launch", "most_before_us",
//              "idle_launches", "least_idle_delay_us", "most_idle_delay_us", "offset",
//              "suggested_gpu_shift_us"},
//    "gaps": [{"device", "stream" | null, "start_us", "dur_us", "cause", "cause_label",
//              "reason", "late_us" | null, "breakdown" | null, "cpu_covered_share" | null,
//              "dominant" | null, "input_pipeline", "blocking_call" | null,
//              "waited_on" | null, "wait_call" | null, "no_recorded_cause",
//              "graph_capture_us", "other_threads": [{"pid", "tid", "thread" | null,
//              "launching_thread", "call", "overlap_us", "whole_gap"}]}]
//              (per device, then per stream; late_us is negative when the launch call was
//              already running when the gap began),
//    "by_cause": {"<cause>": {"count", "idle_us", "share_of_span"}},
//    "steps": [{"name", "device", "start_us", "dur_us", "idle_us", "idle_share", "by_cause"}],
//    "edges": [{"device", "before_first_op_us", "after_last_op_us"}]}
#include "analysis/gaps/gap_causes.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>

namespace strata {

nlohmann::json gapCausesToJson(const Trace& trace, const GapCauses& gaps);

// Per cause its count and idle, with its share of `span` when given:
// {"<cause>": {"count", "idle_us", "share_of_span"}}.
nlohmann::json gapCauseTotalsToJson(const std::array<CauseTotals, kGapCauseCount>& byCause,
                                    std::optional<TimeNs> span);

} // namespace strata
