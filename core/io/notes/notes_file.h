#pragma once
// The sidecar file beside a trace, `<trace file>.strata-notes.json`, that keeps the user's notes,
// flags and track arrangement (model/timeline_notes.h); the trace file itself is never touched.
//
//   {"format": "strata-notes", "version": 1, "trace": "run.json",
//    "notes": [{"ts": 1730000000100000, "text": "warm-up ends"}],
//    "flags": [{"start": 1730000000200000, "end": 1730000000300000, "text": "slow step"}],
//    "tracks": {"pinned": ["thread:12:12"], "hidden": ["counter:12:mem"],
//               "hiddenGroups": ["process:40"], "order": {"process:12": ["thread:12:14", ...]}}}
//
// Times are the trace's own nanoseconds (absolute, as its events carry them). Unknown top-level
// keys are kept and written back; a file that is not this format, or that breaks it, is refused
// whole with the reason (the caller warns and ignores it).
#include "model/timeline_notes.h"

#include <optional>
#include <string>

namespace strata {

inline constexpr const char* kNotesFileSuffix = ".strata-notes.json";

// "<trace>.strata-notes.json".
std::string notesFilePath(const std::string& tracePath);

// The sidecar's text (pretty-printed JSON); `traceName` is written as "trace" (informational).
std::string notesToJson(const TimelineNotes& notes, const std::string& traceName = {});
// The notes in `text`, or nullopt and *error (what is wrong and where: "flags[2].end: ...").
std::optional<TimelineNotes> notesFromJson(const std::string& text, std::string* error);

struct NotesFileRead {
    bool exists = false;                // a file is there
    std::optional<TimelineNotes> notes; // read, when it is a good sidecar
    std::string error;                  // why not, naming the file
};
NotesFileRead readNotesFile(const std::string& path);

// Written whole beside the trace (a temporary file renamed over `path`: never half a file);
// false and *error naming the file when it cannot be (a folder that is not writable).
bool writeNotesFile(const std::string& path, const TimelineNotes& notes, std::string* error,
                    const std::string& traceName = {});

} // namespace strata
