#pragma once
// Attaching to a run in progress (issue 50): the contract between a collector started with
// STRATA_WAIT_FOR_ATTACH=1 (strata-cli record --wait-for-attach) and whoever starts and stops its
// capture (strata-cli attach, here or over ssh). No daemon, no socket: a per-user folder of small
// files that both sides read and write.
//
//   DIR                 $STRATA_ATTACH_DIR, else /tmp/strata-attach-UID; mode 0700, owned by
//                       the user (a folder that is not is refused, never used)
//   DIR/PID.run         written by the waiting process (and only by it) when it starts, removed
//                       when it ends: its pid, run id, command line, trace path, state, and the
//                       acknowledgement of the last request it served
//   DIR/PID.control     written by a requester: the request's sequence number and "start" or
//                       "stop"; the collector's flush thread reads it every STRATA_FLUSH_MS
//
// Both are written aside and renamed into place, so a reader never sees half a file. A .run file
// whose process is gone (the pid no longer runs, or runs another program started since: its start
// time in /proc differs, or it is a zombie) is stale: listings skip it and remove it.
// Plain std + POSIX (the collector compiles it).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::attach {

enum class RunState { Waiting, Capturing, Stopped };
std::string_view stateName(RunState s); // "waiting", "capturing", "stopped"

// What a waiting process says about itself (DIR/PID.run).
struct WaitingRun {
    int64_t pid = 0;
    uint64_t startTicks = 0; // the process's start time (/proc/PID/stat field 22)
    std::string runId;       // $STRATA_RUN_ID
    std::string command;     // its command line (one line)
    std::string trace;       // the trace file it writes (absolute)
    RunState state = RunState::Waiting;
    int32_t flushMs = 200; // how often it looks at its control file
    int64_t served = 0;    // the sequence number of the last request it served (0: none)
    int64_t servedNs = 0;  // when that request took effect (CLOCK_MONOTONIC_RAW ns: the clock
                           // of every record): where its capture window opened or closed
    std::string windows;   // its capture windows so far: "START-END,START-" (ns, as servedNs)
    std::string note;      // what the last request did ("" or e.g. "already capturing")
};

enum class Request { Start, Stop };
struct ControlRequest {
    int64_t seq = 0;
    Request request = Request::Start;
};

// The folder: `overrideDir` ($STRATA_ATTACH_DIR) when given and not empty, else
// /tmp/strata-attach-UID.
std::string registryDir(const char* overrideDir);
// Checks the folder is usable: a directory (not a symbolic link) owned by this user with no
// access for others; with `create`, made (mode 0700) when missing. False and *error otherwise.
bool checkRegistryDir(const std::string& dir, bool create, std::string* error);

std::string runFilePath(const std::string& dir, int64_t pid);
std::string controlFilePath(const std::string& dir, int64_t pid);

std::string formatRun(const WaitingRun& run);
bool parseRun(std::string_view text, WaitingRun* out);
std::string formatControl(const ControlRequest& request);
bool parseControl(std::string_view text, ControlRequest* out);

// `text` written to `path` whole: into a temporary beside it (mode 0600), then renamed over it.
bool writeFileAtomically(const std::string& path, std::string_view text, std::string* error);
// The whole file; false when it cannot be read.
bool readSmallFile(const std::string& path, std::string* out);

// The start time of process `pid` (/proc/PID/stat field 22, clock ticks since boot); 0 when there
// is no such process, or it has ended and waits to be reaped (a zombie).
uint64_t processStartTicks(int64_t pid);
// The process that wrote `run` still runs (same pid, same start time).
bool runAlive(const WaitingRun& run);

// The waiting runs in `dir`, sorted by pid; stale entries are removed (their pids in *removed
// when given). A folder that does not exist holds none.
std::vector<WaitingRun> listRuns(const std::string& dir, std::vector<int64_t>* removed = nullptr);

} // namespace strata::attach
