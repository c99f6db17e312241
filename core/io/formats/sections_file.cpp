// The host helper's .sections file (kernels/include/strata/sections_host.h): one block per
// instrumented launch when no collector was injected (io/sections/sections_file_format.h).
#include "io/sections/sections_file_format.h"
#include "io/sections/sections_import.h"
#include "io/trace_reader.h"

namespace strata {

namespace {

Recognition recognise(std::string_view head, std::string_view path) {
    if (head.substr(0, sizeof sections_file::kMagic) ==
        std::string_view(sections_file::kMagic, sizeof sections_file::kMagic))
        return kByContent;
    return lowerExtension(path) == sections_file::kExtension ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    return loadSectionsFile(path, options, parseSectionsFile);
}

} // namespace

extern const TraceReader kSectionsFileReader{
    "sections", "Strata sections file (.sections)", {".sections"}, ReaderKind::Sections, recognise,
    load,
};

} // namespace strata
