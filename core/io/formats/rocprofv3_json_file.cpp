// rocprofv3's JSON output (io/formats/amd/rocprofv3_json.h), recognised by its first key,
// "rocprofiler-sdk-tool", ahead of the Chrome JSON reader (which takes any other '{').
#include "io/formats/amd/rocprofv3_json.h"
#include "io/trace_reader.h"

namespace strata {
namespace {

Recognition recognise(std::string_view head, std::string_view) {
    return isRocprofv3Json(head) ? kByContent : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    LoadResult r;
    TraceBuilder builder;
    LoadError error;
    if (!readRocprofv3Json(path, options, builder, &error)) {
        r.error = error;
        return r;
    }
    r.trace = builder.build();
    return r;
}

} // namespace

extern const TraceReader kRocprofv3JsonReader{
    "rocprofv3-json", "rocprofv3 JSON (results.json)",
    {".json"},        ReaderKind::Trace,
    recognise,        load,
};

} // namespace strata
