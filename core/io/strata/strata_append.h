#pragma once
// Completing a recording: the launcher (core/record) appends the Run record to each .strata file
// a run wrote, or writes a file holding only it when the run wrote none. docs/strata-format.md,
// "The run record", describes both.
#include "io/strata/strata_file_create.h"
#include "model/run_info.h"

#include <string>
#include <string_view>

namespace strata {

struct AppendResult {
    bool ok = false;
    // What was done beyond the append ("cut a damaged tail of 812 bytes at byte 40960: the
    // target was killed while writing its last chunk"), or why nothing was (the error).
    std::string note;
};

// Appends one chunk holding the Run record to `path` (opened without following a link; the
// append goes to the file checked, whatever its name leads to meanwhile). Refused, with the reason
// in `note`: not a .strata 1.x file; a file another process still writes (it holds the writer's
// lock and has no end-of-file record); a damaged tail longer than a chunk (more than a torn last
// write: it is left as it is for a person to look at). A shorter damaged tail, which no reader can
// use, is cut first and the cut is recorded in a Warning record of the appended chunk.
AppendResult appendRunRecord(const std::string& path, const RunInfo& run);

// Writes a new .strata file at `path` holding the Run record, the target's process (pid and
// program name) and the metadata no_trace_reason, command_line, host, pid and (when given)
// run_id: what is known of a run that wrote no trace. Created as a recording's file is
// (io/strata/strata_file_create.h): refused if the name exists, unless `mode` is ReplaceFinished
// (--force) and the existing file is a regular file no live writer holds.
bool writeRunOnlyTrace(const std::string& path, const RunInfo& run, std::string* error,
                       std::string_view runId = {}, CreateMode mode = CreateMode::Exclusive);

} // namespace strata
