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

// One file of a set reduced to its rank digest, or why it could not be ("FILE: why") and which
// file that was (the trace a digest of its error names; empty: the one asked for).
struct DigestOutcome {
    std::optional<RankDigest> digest;
    std::string error;
    std::string file;
};

// An outcome as `strata-cli digest` writes it: the digest's JSON, or for a file that did not
// digest {"strata_rank_digest": 1, "file": FILE, "error": "FILE: why"}, so that a reduce elsewhere
// reports that file with the load's own words. Read back with `source` (where the JSON came
// from) naming a document that is neither.
nlohmann::json digestOutcomeToJson(const DigestOutcome& outcome, const std::string& file);
DigestOutcome digestOutcomeFromJson(const nlohmann::json& json, const std::string& source);

// What `path` holds when it is a file `strata-cli digest` wrote (a JSON file of at most 16 MB
// with the version key): its digest, the error it holds, or why it does not read (a newer
// version, a broken document); nullopt for any other file (a trace).
std::optional<DigestOutcome> readDigestFile(const std::string& path);

} // namespace strata
