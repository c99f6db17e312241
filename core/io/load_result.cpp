#include "io/load_result.h"

namespace strata {

std::string LoadError::toString() const {
    std::string s = file;
    s += ": ";
    if (byteOffset != kInMessage) {
        if (line > 0) s += "line " + std::to_string(line) + ", ";
        s += "byte " + std::to_string(byteOffset) + ": ";
    }
    s += message;
    return s;
}

} // namespace strata
