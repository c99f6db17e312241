#include "io/notes/notes_in_trace.h"

#include "io/export/perfetto_notes.h"

#include <algorithm>

namespace strata {

std::vector<TimelineNote> notesInTrace(const Trace& trace) {
    std::vector<TimelineNote> out;
    for (const Track& t : trace.tracks()) {
        if (t.kind == TrackKind::GlobalInstants) {
            const InstantColumns& in = t.instants;
            for (size_t i = 0; i < in.size(); ++i)
                if (trace.str(in.category[i]) == kNoteCategory)
                    out.push_back({in.ts[i], in.ts[i], std::string(trace.str(in.name[i])), false});
        } else if (t.kind == TrackKind::Async) {
            const SliceColumns& s = t.slices;
            for (size_t i = 0; i < s.size(); ++i)
                if (trace.str(s.category[i]) == kFlagCategory)
                    out.push_back({s.start[i], s.end(SliceIndex(i)),
                                   std::string(trace.str(s.name[i])), true});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const TimelineNote& a, const TimelineNote& b) {
        return a.start < b.start;
    });
    return out;
}

} // namespace strata
