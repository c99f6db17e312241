#pragma once
// A RankDigest (analysis/ranks/rank_digest.h) as versioned JSON, written and read back exactly
// (times are integer nanoseconds of the trace's own clock). docs/ranks.md describes every key:
//   {"strata_rank_digest": 1, "file", "rank", "rank_source", "host", "world_size",
//    "clock": {"base_time_ns" | null, "wall_clock", "start_ns", "end_ns"},
//    "gap_threshold_ns", "step_prefix", "kernels", "kernel_time_ns", "busy_ns", "idle_ns",
//    "collectives": [{"name", "op", "group", "device", "stream", "seq", "start_ns", "end_ns",
//                     "collective", "peer"}],   (the last two optional: absent before issue 44)
//    "steps": [{"name", "start_ns", "end_ns", "devices": [{"device", "busy_ns", "idle_ns",
//               "kernels", "gaps_by_cause": {"<cause>": {"count", "idle_ns"}}}]}],
//    "step_roles": {"tail_steps_left_out", "steps": [{"name", "start_ns", "end_ns",
//                   "roles_ns": {"kernel", "memcpy", "memset", "communication", "runtime",
//                                "data_loading", "cpu_op", "other"}, "computation_ns",
//                   "communication_ns", "overlap_ns", "other_than_both_ns"}]},
//                   (absent before issue 46: no roles; the roles must sum to the step's length)
//    "warnings": [str]}
// The version key is written first (nlohmann's ordered_json), so that a digest is told from a
// trace by its first bytes (io/digest_reader.h). Reading refuses, naming the key and what was
// expected, a document that is not a digest, one of a newer version than this build reads, any
// field of the wrong type, and any value outside what it means (docs/ranks.md): a time beyond
// +-2^62 ns (model/time.h's kMaxTimeNs, what a trace holds: so that the difference of any two
// times of a set fits in TimeNs), a negative count or duration, an end before its start, a
// collective or step outside the trace's bounds, a device beyond int32, a world size below -1.
#include "analysis/ranks/rank_digest.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace strata {

nlohmann::ordered_json rankDigestToJson(const RankDigest& digest);
std::string rankDigestToText(const RankDigest& digest); // the JSON, indented by one space

// The digest in `json`, or nullopt and *error ("collectives[3].end_ns: expected an integer").
std::optional<RankDigest> rankDigestFromJson(const nlohmann::json& json, std::string* error);
// The same from text (a JSON syntax error is said with its byte offset).
std::optional<RankDigest> rankDigestFromText(std::string_view text, std::string* error);

// An outcome as `strata-cli digest` writes it: the digest's JSON, or for a file that did not
// digest {"strata_rank_digest": 1, "file": FILE, "error": "FILE: why"}, so that a reduce elsewhere
// reports that file with the load's own words. Read back with `source` (where the JSON came
// from) naming a document that is neither.
nlohmann::ordered_json digestOutcomeToJson(const DigestOutcome& outcome, const std::string& file);
DigestOutcome digestOutcomeFromJson(const nlohmann::json& json, const std::string& source);

} // namespace strata
