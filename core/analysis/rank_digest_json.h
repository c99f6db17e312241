#pragma once
// A RankDigest (analysis/rank_digest.h) as versioned JSON, written and read back exactly (times
// are integer nanoseconds of the trace's own clock). docs/ranks.md describes every key:
//   {"strata_rank_digest": 1, "file", "rank", "rank_source", "host", "world_size",
//    "clock": {"base_time_ns" | null, "wall_clock", "start_ns", "end_ns"},
//    "gap_threshold_ns", "step_prefix", "kernels", "kernel_time_ns", "busy_ns", "idle_ns",
//    "collectives": [{"name", "op", "group", "device", "stream", "seq", "start_ns", "end_ns"}],
//    "steps": [{"name", "start_ns", "end_ns", "devices": [{"device", "busy_ns", "idle_ns",
//               "kernels", "gaps_by_cause": {"<cause>": {"count", "idle_ns"}}}]}],
//    "warnings": [str]}
// Reading refuses, naming the key and what was expected, a document that is not a digest, one
// of a newer version than this build reads, and any field of the wrong type.
#include "analysis/rank_digest.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace strata {

nlohmann::json rankDigestToJson(const RankDigest& digest);
std::string rankDigestToText(const RankDigest& digest); // the JSON, indented by one space

// The digest in `json`, or nullopt and *error ("collectives[3].end_ns: expected an integer").
std::optional<RankDigest> rankDigestFromJson(const nlohmann::json& json, std::string* error);
// The same from text (a JSON syntax error is said with its byte offset).
std::optional<RankDigest> rankDigestFromText(std::string_view text, std::string* error);

} // namespace strata
