// A CSV timer array: a header row of section names, then one row per iteration
// (io/sections/sections_import.h). Recognised by its name, or by a first line with commas over a
// line that starts with a number.
#include "io/sections/sections_import.h"
#include "io/trace_reader.h"

namespace strata {

namespace {

bool looksLikeCsv(std::string_view head) {
    if (head.find('\0') != std::string_view::npos) return false;
    const char first = firstNonSpace(head);
    if (first == '{' || first == '[' || first == '\0') return false;
    const size_t eol = head.find('\n');
    if (eol == std::string_view::npos || head.substr(0, eol).find(',') == std::string_view::npos)
        return false;
    const size_t next = head.find_first_not_of(" \t\r", eol + 1);
    if (next == std::string_view::npos) return false;
    const char c = head[next];
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
}

Recognition recognise(std::string_view head, std::string_view path) {
    return lowerExtension(path) == ".csv" || looksLikeCsv(head) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    return loadSectionsFile(path, options, parseCsvSections);
}

} // namespace

extern const TraceReader kCsvTimerArrayReader{
    "csv", "CSV timer array", {".csv"}, ReaderKind::Sections, recognise, load,
};

} // namespace strata
