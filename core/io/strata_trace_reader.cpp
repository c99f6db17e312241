// Placeholder until the .strata reader lands.
#include "io/trace_loader.h"

strata::LoadResult strata::readStrataTrace(const std::string& path, const LoadOptions&) {
    LoadResult r;
    r.error = LoadError{path, 0, 0, "the .strata reader is not built yet"};
    return r;
}
