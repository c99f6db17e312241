#include "io/trace_loader.h"

#include "io/trace_reader.h"

namespace strata {

LoadResult loadTrace(const std::string& path, const LoadOptions& options) {
    std::string error;
    const TraceReader* reader = options.reader ? options.reader : recogniseFile(path, &error);
    if (!reader) {
        LoadResult r;
        r.error = LoadError{path, LoadError::kInMessage, 0, error}; // no byte was read
        return r;
    }
    LoadResult r = reader->load(path, options);
    if (r.format.empty()) r.format = std::string(reader->name);
    return r;
}

} // namespace strata
