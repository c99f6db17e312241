// A JSON timer array {"sections": [names], "clock_hz": number?, "times": [[...], ...]}
// (io/sections/sections_import.h): a JSON object whose first key is one of those three.
#include "io/sections/sections_import.h"
#include "io/trace_reader.h"

namespace strata {

namespace {

Recognition recognise(std::string_view head, std::string_view) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    size_t at = head.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos || head[at] != '{') return kNotMine;
    at = head.find_first_not_of(" \t\r\n", at + 1);
    if (at == std::string_view::npos || head[at] != '"') return kNotMine;
    const size_t end = head.find('"', at + 1);
    if (end == std::string_view::npos) return kNotMine;
    const std::string_view key = head.substr(at + 1, end - at - 1);
    return key == "sections" || key == "times" || key == "clock_hz" ? kByContent : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    return loadSectionsFile(path, options, parseJsonSections);
}

} // namespace

extern const TraceReader kJsonTimerArrayReader{
    "timer-json", "JSON timer array", {".json"}, ReaderKind::Sections, recognise, load,
};

} // namespace strata
