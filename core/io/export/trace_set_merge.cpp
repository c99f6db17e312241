#include "io/export/trace_set_merge.h"

#include "io/trace_loader.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace strata {

namespace {

// A unique file name in the temporary folder (the file is created, empty).
std::string temporaryJson() {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string name = (dir / "strata-merged-XXXXXX.json").string();
    const int fd = mkstemps(name.data(), 5);
    if (fd < 0) return {};
    ::close(fd);
    return name;
}

} // namespace

LoadResult mergeTraceSet(const std::vector<PerfettoExportPart>& parts, const std::string& name,
                         const LoadOptions& options) {
    LoadResult r;
    // Through a temporary file rather than memory: the file reader parses on several threads,
    // and the JSON text is never held whole (the page cache keeps it).
    const std::string path = temporaryJson();
    if (path.empty()) {
        r.error = LoadError{name, LoadError::kInMessage, 0,
                            "the set could not be merged: no temporary file could be created"};
        return r;
    }
    const PerfettoExportResult written = exportPerfettoJsonSet(parts, path);
    if (!written.ok) {
        std::filesystem::remove(path);
        r.error = LoadError{name, LoadError::kInMessage, 0,
                            "the set could not be merged: " + written.error};
        return r;
    }
    r = loadTrace(path, options);
    std::filesystem::remove(path);
    if (r.error) r.error->file = name;
    return r;
}

} // namespace strata
