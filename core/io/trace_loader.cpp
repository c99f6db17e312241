#include "io/trace_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace strata {

TraceFormat sniffTraceFormat(const std::string& path, std::string* error) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        if (error) *error = path + ": cannot open: " + std::strerror(errno);
        return TraceFormat::Unknown;
    }
    unsigned char head[8] = {};
    const size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) return TraceFormat::ChromeJsonGzip;
    // A file cut inside the .strata header still starts like one (no JSON starts with 'S').
    if (n >= 1 && std::memcmp(head, "STRATA", std::min<size_t>(n, 6)) == 0)
        return TraceFormat::Strata;
    // Anything else is handed to the JSON reader, which reports what it expected where.
    return TraceFormat::ChromeJson;
}

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    std::string error;
    switch (sniffTraceFormat(path, &error)) {
    case TraceFormat::Unknown: {
        LoadResult r;
        r.error = LoadError{path, 0, 0, error};
        return r;
    }
    case TraceFormat::Strata:
        return readStrataTrace(path, options);
    case TraceFormat::ChromeJson:
    case TraceFormat::ChromeJsonGzip:
        break;
    }
    return readChromeJson(path, options);
}

} // namespace strata
