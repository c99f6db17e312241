#pragma once
// The user's notes and flags (model/timeline_notes.h) in a Perfetto JSON export: a note as a
// global instant ({"ph": "i", "s": "g"}), a flag as an async slice (a "b"/"e" pair of its own id
// on the trace's first process), both with category "strata.note" / "strata.flag", the text as the
// name and as args.text. Strata reads them back as notes (io/notes/notes_in_trace.h).
#include "io/export/json_out.h"
#include "model/timeline_notes.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace strata {

inline constexpr const char* kNoteCategory = "strata.note";
inline constexpr const char* kFlagCategory = "strata.flag";

// Writes the notes (those in `range`, when given: a note inside it, a flag overlapping it) with
// `origin` as time 0, on process `pid`; `beginEvent` is called before each event (the separator).
// The number of notes and flags written.
uint64_t writePerfettoNotes(JsonOut& out, const std::vector<TimelineNote>& notes, int64_t pid,
                            TimeNs origin, const std::optional<TimeRange>& range,
                            const std::function<void()>& beginEvent);

} // namespace strata
