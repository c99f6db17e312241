#pragma once
// What the user adds to a trace on the timeline and keeps beside it (io/notes/notes_file.h):
// notes (a point in time with text, Perfetto's note on the time axis) and flags (a time range
// with text), and how the tracks are arranged (pinned to the top, hidden, reordered in their
// group), each track and group named by a stable key (io/notes/track_keys.h) rather than a row
// index, so that the arrangement survives a rebuild and another load of the same trace.
#include "model/time.h"

#include <string>
#include <utility>
#include <vector>

namespace strata {

struct TimelineNote {
    TimeNs start = 0; // the trace's own clock, ns
    TimeNs end = 0;   // == start for a note; > start for a flag
    std::string text;
    bool flag = false; // a range (flag) rather than a point (note)
    friend bool operator==(const TimelineNote&, const TimelineNote&) = default;
};

struct TrackArrangement {
    std::vector<std::string> pinned;       // row keys, top to bottom
    std::vector<std::string> hidden;       // row keys
    std::vector<std::string> hiddenGroups; // group keys
    // The groups whose rows the user reordered: group key, its rows' keys top to bottom.
    std::vector<std::pair<std::string, std::vector<std::string>>> order;
    bool empty() const {
        return pinned.empty() && hidden.empty() && hiddenGroups.empty() && order.empty();
    }
    friend bool operator==(const TrackArrangement&, const TrackArrangement&) = default;
};

struct TimelineNotes {
    std::vector<TimelineNote> notes; // notes and flags, in the order they were added
    TrackArrangement tracks;
    // The sidecar's top-level keys this version does not know, as a JSON object's text ("" none):
    // kept and written back, so that a newer Strata's additions survive an edit here.
    std::string otherKeys;
    bool empty() const { return notes.empty() && tracks.empty(); }
    friend bool operator==(const TimelineNotes&, const TimelineNotes&) = default;
};

} // namespace strata
