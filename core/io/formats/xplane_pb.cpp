// The JAX/XLA profiler's .xplane.pb (io/formats/xplane/xplane_file.h), recognised by its first
// plane's name.
#include "io/formats/whole_file_load.h"
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_PROTOBUF
#include "io/formats/xplane/xplane_file.h"
#endif

namespace strata {
namespace {

bool named(std::string_view path) {
    const std::string ext = lowerExtension(path);
    return ext == ".pb" || (path.size() >= 10 && path.substr(path.size() - 10) == ".xplane.pb");
}

#ifdef STRATA_HAVE_PROTOBUF

Recognition recognise(std::string_view head, std::string_view path) {
    if (looksLikeXSpace(head)) return kByContent;
    return named(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return loadWholeFile(path, readXSpace);
}

#else

Recognition recognise(std::string_view, std::string_view path) {
    return named(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return builtWithout(path, "an XSpace (.xplane.pb)", "protobuf",
                        "libprotobuf-dev and protobuf-compiler");
}

#endif

} // namespace

extern const TraceReader kXplaneReader{
    "xplane",
    "JAX/XLA profiler XSpace (.xplane.pb)",
    {".xplane.pb", ".pb"},
    ReaderKind::Trace,
    recognise,
    load,
};

} // namespace strata
