#pragma once
// Several traces on one timeline as one Trace, for a window that shows a set (the ranks of a
// job): the set's Perfetto export (writePerfettoJsonSet: each part shifted by its offset, its
// processes "rank 3: python", its GPU devices "rank 3: GPU 0" with device ids apart) read back by
// the Chrome JSON reader. So the window shows exactly what Perfetto, and strata-cli on the
// exported file, show of the set; what the export does not carry (in-kernel sections other than
// as slices on per-SM threads, the recordings' run records) is not in the merged trace either.
// Costs one export and one load of the set, through a temporary file (removed at once): the
// file reader parses on several threads and never holds the JSON text whole.
#include "io/export/perfetto_json_export.h"
#include "io/load_result.h"

#include <string>
#include <vector>

namespace strata {

// `name`: what the reader's messages call the merged trace ("8 ranks").
LoadResult mergeTraceSet(const std::vector<PerfettoExportPart>& parts, const std::string& name,
                         const LoadOptions& options = {});

} // namespace strata
