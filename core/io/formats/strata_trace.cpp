// Strata's own recordings (.strata: io/strata/strata_format.h), what the collector writes.
#include "io/strata/read/strata_trace_reader.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"

#include <algorithm>
#include <cstring>

namespace strata {

namespace {

Recognition recognise(std::string_view head, std::string_view path) {
    // A file cut inside the header still starts like one (no JSON starts with 'S').
    if (!head.empty() && std::memcmp(head.data(), "STRATA", std::min<size_t>(head.size(), 6)) == 0)
        return kByContent;
    return head.empty() && lowerExtension(path) == ".strata" ? kByName : kNotMine;
}

} // namespace

extern const TraceReader kStrataTraceReader{
    "strata", "Strata recording", {".strata"}, ReaderKind::Trace, recognise, readStrataTrace,
};

} // namespace strata
