#pragma once
// Notes and flags a Strata export carried (io/export/perfetto_notes.h), read back from a loaded
// trace: its global instants of category "strata.note" as notes, its async slices of category
// "strata.flag" as flags, their names as the text. They stay in the trace too (an instant, an
// async row), as every viewer shows them.
#include "model/timeline_notes.h"
#include "model/trace.h"

#include <vector>

namespace strata {

std::vector<TimelineNote> notesInTrace(const Trace& trace);

} // namespace strata
