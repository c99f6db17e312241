// Perfetto's protobuf traces with TrackEvent data (io/formats/perfetto/pftrace_file.h),
// recognised by their first packet's first field.
#include "io/trace_reader.h"
#ifdef STRATA_HAVE_PROTOBUF
#include "io/formats/perfetto/pftrace_file.h"
#endif

#include <fstream>
#include <sstream>

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
    LoadResult r;
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        r.error = LoadError{path, 0, 0, "cannot be read"};
        return r;
    }
    std::ostringstream bytes;
    bytes << f.rdbuf();
    TraceBuilder builder;
    std::string error;
    if (!readPftrace(bytes.view(), builder, &error)) {
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    r.trace = builder.build();
    return r;
}

#else

Recognition recognise(std::string_view, std::string_view path) {
    return named(path) ? kByName : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    LoadResult r;
    r.error = LoadError{path, 0, 0,
                        "a Perfetto trace (.pftrace): this Strata was built without protobuf "
                        "(install libprotobuf-dev and protobuf-compiler and build again)"};
    return r;
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
