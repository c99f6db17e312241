// Perfetto's protobuf traces with TrackEvent data (io/formats/perfetto/pftrace_file.h),
// recognised by their first packet's first field.
#include "io/formats/whole_file_load.h"
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_PROTOBUF
#include "io/formats/perfetto/pftrace_file.h"
#endif

namespace strata {
namespace {

bool named(std::string_view path) {
    const std::string ext = lowerExtension(path);
    return ext == ".pftrace" || ext == ".perfetto-trace";
}

#ifdef STRATA_HAVE_PROTOBUF

Recognition recognise(std::string_view head, std::string_view path) {
    if (looksLikePftrace(head)) return kByContent;
    return named(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return loadWholeFile(path, readPftrace);
}

#else

Recognition recognise(std::string_view, std::string_view path) {
    return named(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    return builtWithout(path, "a Perfetto trace (.pftrace)", "protobuf",
                        "libprotobuf-dev and protobuf-compiler");
}

#endif

} // namespace

extern const TraceReader kPftraceReader{
    "pftrace",
    "Perfetto protobuf trace (.pftrace)",
    {".pftrace", ".perfetto-trace"},
    ReaderKind::Trace,
    recognise,
    load,
};

} // namespace strata
