#pragma once
// What was run to make a recording: the launcher (core/record) fills it when the target exits
// and appends it to every .strata file the run wrote (a Run record, io/strata/strata_records.h),
// or writes a file holding only it when the target wrote none. The Trace Info panel and
// `strata-cli info` show it. Plain std (the writer, and so the collector, includes it).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

struct RunInfo {
    std::vector<std::string> argv; // as run (argv[0] as given, not resolved)
    std::string executable;        // argv[0] resolved (absolute path), or empty
    std::string cwd;               // the target's working directory (absolute)
    std::vector<std::pair<std::string, std::string>> envAdded; // set for the target by the user
    std::vector<std::string> envRemoved;                       // unset for the target by the user
    int64_t pid = 0;                                           // the target's pid
    std::optional<int> exitCode;                               // when it exited normally
    std::optional<int> signal;                                 // when a signal ended it
    int64_t startUnixNs = 0;                                   // wall clock at the start
    int64_t durationNs = 0;                                    // start to exit
    std::string host;
    std::string strataVersion; // of the launcher that ran it
    bool captured = true;      // the collector was injected (false: run without capture)
    // Why this file holds no recording of the target, when the launcher wrote it alone (the
    // target never initialised CUDA, died first, or ran without capture); empty otherwise.
    std::string noTraceReason;
    // Stopped from Strata (Stop / quit): the signals sent, in order (e.g. "SIGINT", "SIGTERM").
    std::vector<std::string> stopSignals;

    friend bool operator==(const RunInfo&, const RunInfo&) = default;
};

// The JSON object the Run record carries (and `strata-cli info --json` prints as "run"):
// {"argv": [...], "executable": str, "cwd": str, "env_added": {k: v}, "env_removed": [...],
//  "pid": int, "exit_code": int|null, "signal": int|null, "start_unix_ns": int,
//  "start_time": "2026-11-23T21:04:05.123Z", "duration_ns": int, "duration_s": float, "host": str,
//  "strata_version": str, "captured": bool, "no_trace_reason": str, "stop_signals": [...]}.
std::string runInfoToJson(const RunInfo& run);
// Reads that object back: fills the members it names (unknown keys are ignored, missing ones left
// as they are; pid, exit code, signal, start and duration travel in the record's binary fields).
// Returns empty, or what is wrong with the text (then `run` keeps what was read before it).
std::string runInfoFromJson(std::string_view json, RunInfo* run);

// "2026-11-23T21:04:05.123Z" (UTC, milliseconds).
std::string formatUtcTime(int64_t unixNs);

// "exited with code 3", "was killed by signal 9 (SIGKILL)", "is still running" (neither set).
std::string describeExit(const RunInfo& run);

} // namespace strata
