// A NumPy .npy timer array times[section][iteration] (int64/int32, 2-D, C or Fortran order: the
// Quadrants/Genesis clock_counter layout; io/sections/sections_import.h).
#include "io/sections/sections_import.h"
#include "io/trace_reader.h"

namespace strata {

namespace {

Recognition recognise(std::string_view head, std::string_view path) {
    if (head.substr(0, 6) == "\x93NUMPY") return kByContent;
    return lowerExtension(path) == ".npy" ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    return loadSectionsFile(path, options, parseNpySections);
}

} // namespace

extern const TraceReader kNpyTimerArrayReader{
    "npy", "NumPy timer array (.npy)", {".npy"}, ReaderKind::Sections, recognise, load,
};

} // namespace strata
