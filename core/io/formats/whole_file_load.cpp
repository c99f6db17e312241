#include "io/formats/whole_file_load.h"

#include <fstream>
#include <sstream>

namespace strata {

LoadResult loadWholeFile(const std::string& path, const BytesRead& read) {
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
    if (!read(bytes.view(), builder, &error)) {
        r.error = LoadError{path, LoadError::kInMessage, 0, error};
        return r;
    }
    r.trace = builder.build();
    return r;
}

LoadResult builtWithout(const std::string& path, const std::string& what,
                        const std::string& library, const std::string& packages) {
    LoadResult r;
    r.error = LoadError{path, 0, 0,
                        what + ": this Strata was built without " + library + " (install " +
                            packages + " and build again)"};
    return r;
}

} // namespace strata
