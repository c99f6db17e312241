#include "activities/demangle.h"

#include <cstdlib>
#include <cxxabi.h>

namespace strata {

std::string demangledSymbol(const char* symbol) {
    if (!symbol) return {};
    if (symbol[0] != '_' || symbol[1] != 'Z') return symbol;
    int status = -1;
    char* d = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
    std::string name = d && status == 0 ? std::string(d) : std::string(symbol);
    std::free(d);
    return name;
}

} // namespace strata
