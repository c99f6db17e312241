#pragma once
// Several traces on one timeline as one Trace, for a window that shows a set (the ranks of a
// job, a baseline over a candidate): the model the set's Perfetto export
// (writePerfettoJsonSet) describes, made from the parts' columns directly — each part shifted by
// its offset, its processes "rank 3: python" and its GPU devices "rank 3: GPU 0" with the
// export's pids, tids, device ids and correlation/External ids (io/set/part_ids.h), so
// the window, Perfetto and strata-cli on the exported file name the same groups. Unlike the file,
// a track's overlapping lanes stay lanes of their thread, and the parts' in-kernel sections and
// warnings (prefixed with the part's label) are kept as they are. Costs a copy of the parts'
// columns (strings and arg sets shared by parts are stored once), on both cores.
#include "io/load_result.h"
#include "io/set/trace_part.h"

#include <string>
#include <vector>

namespace strata {

// Which part (its index in the parts given) each event of a merged trace came from.
struct MergeLayout {
    static constexpr uint32_t kNoPart = UINT32_MAX;
    std::vector<uint32_t> partOfTrack;         // kNoPart: the global instants' track
    std::vector<uint32_t> partOfGlobalInstant; // that track's instants, in order
};

// `name`: what an error calls the merged trace ("8 ranks"). `layout`, when given, is filled.
LoadResult mergeTraceSet(const std::vector<TracePart>& parts, const std::string& name,
                         MergeLayout* layout = nullptr);

// The merged trace with part k's events moved by shift[k] (0 past its end): another alignment
// of the set without its parts, which need not be held once merged. The bounds follow; the global
// instants are put back in time order (`layout` follows them). A copy of the merged trace.
std::shared_ptr<const Trace> shiftMergedParts(const Trace& merged, MergeLayout& layout,
                                              const std::vector<TimeNs>& shift);

} // namespace strata
