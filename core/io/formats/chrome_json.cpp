// Chrome Trace Event JSON, as the PyTorch profiler/Kineto, JAX, chrome://tracing and Perfetto
// write it, plain or gzip (io/json/chrome_json_reader.h). It also takes what no other reader
// recognises, to say what it expected where.
#include "io/json/chrome_json_reader.h"
#include "io/trace_reader.h"
#include "util/input_file.h"

namespace strata {

namespace {

bool gzipped(std::string_view head) {
    return head.size() >= 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b;
}

Recognition recognise(std::string_view head, std::string_view) {
    if (gzipped(head)) return kByContent;
    const char c = firstNonSpace(head);
    return c == '{' || c == '[' ? kByName : kLastResort;
}

LoadResult load(const std::string& path, const LoadOptions& options) {
    LoadResult r = readChromeJson(path, options);
    char head[2] = {};
    std::string ignored;
    if (FILE* f = fopenRegularFile(path, &ignored)) {
        r.format = std::fread(head, 1, 2, f) == 2 && gzipped({head, 2}) ? "chrome-json-gzip"
                                                                        : "chrome-json";
        std::fclose(f);
    }
    return r;
}

} // namespace

extern const TraceReader kChromeJsonReader{
    "chrome-json",
    "Chrome / Kineto trace JSON (plain or gzip)",
    {".json", ".json.gz", ".pt.trace.json", ".gz"},
    ReaderKind::Trace,
    recognise,
    load,
};

} // namespace strata
