#include "io/load_result.h"

namespace strata {

std::string LoadError::toString() const {
    std::string s = file;
    s += ": ";
    if (line > 0) s += "line " + std::to_string(line) + ", ";
    s += "byte " + std::to_string(byteOffset) + ": " + message;
    return s;
}

} // namespace strata
