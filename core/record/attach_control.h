#pragma once
// The requester's side of attaching (issue 50; the files are contract/attach_registry.h's): the
// runs waiting here, and a start or stop sent to one of them and waited for until its flush
// thread acknowledges (strata-cli attach, here or, through it, on another host over ssh).
#include "contract/attach_registry.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// The runs waiting in `dir` (stale entries removed); false and *error when the folder exists but
// may not be used (another owner, open to others). A folder that does not exist holds none.
bool listWaitingRuns(const std::string& dir, std::vector<attach::WaitingRun>* runs,
                     std::string* error);

struct AttachReply {
    int exitCode = 1;       // 0: done (or nothing to do: note says so)
    std::string error;      // why not, naming the process
    attach::WaitingRun run; // its entry as it acknowledged the request
};

// Sends `request` to process `pid` and waits until it acknowledges: at most `timeoutMs` (0: 10 s
// plus five of its flush periods). The errors: no such process, a process that does not wait
// for attach, one that has ended (its stale entry removed), one that ended or did not answer
// while we waited; a stop to a process that is not capturing. A start to one that is capturing
// already does nothing (exit 0, note "already capturing").
AttachReply requestAttach(const std::string& dir, int64_t pid, attach::Request request,
                          int timeoutMs = 0);

// A run as strata-cli attach --json prints it (and reads it back from a remote host):
// {"pid", "state", "command", "trace", "run_id", "served_ns", "note",
//  "windows": [[START, END or null], ...]} (ns, CLOCK_MONOTONIC_RAW there).
nlohmann::json waitingRunJson(const attach::WaitingRun& run);
bool waitingRunFromJson(const nlohmann::json& j, attach::WaitingRun* out);

} // namespace strata
