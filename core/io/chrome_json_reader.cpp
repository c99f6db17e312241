// Placeholder until the Chrome JSON reader lands.
#include "io/trace_loader.h"

strata::LoadResult strata::readChromeJson(const std::string& path, const LoadOptions&) {
    LoadResult r;
    r.error = LoadError{path, 0, 0, "the Chrome JSON reader is not built yet"};
    return r;
}
