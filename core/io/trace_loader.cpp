#include "io/trace_loader.h"

#include "io/trace_reader.h"

namespace strata {

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    std::string error;
    const TraceReader* reader = recogniseFile(path, &error);
    if (!reader) {
        LoadResult r;
        r.error = LoadError{path, 0, 0, error};
        return r;
    }
    LoadResult r = reader->load(path, options);
    if (r.format.empty()) r.format = std::string(reader->name);
    return r;
}

} // namespace strata
