#pragma once
// A TrackLayout's user arrangement (pinned, hidden, reordered rows, hidden groups) as the stable
// keys the notes sidecar keeps (model/timeline_notes.h, io/notes/track_keys.h), and back: what
// the user arranged is restored when the trace is opened again, whatever the rows' indices.
#include "model/timeline_notes.h"
#include "track_layout.h"

#include <string>

namespace strata {

// A row's key (its first lane's track, a samples row's thread); empty for rows of no track.
std::string rowKey(const Trace& trace, const TrackRow& row);
std::string groupKey(const Trace& trace, const TrackLayout& layout, int group);

TrackArrangement arrangementOf(const TrackLayout& layout, const Trace& trace);
// Applied to a layout just built from `trace`: keys it does not hold are left alone.
void applyArrangement(TrackLayout& layout, const Trace& trace, const TrackArrangement& a);

} // namespace strata
