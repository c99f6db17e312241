#pragma once
// A C++ symbol as people read it ("scale(float*)"): the collector's one demangler, for kernel
// records, the kernels --kernel-metrics matches and CUDA graph nodes. Anything not an Itanium
// mangled name, or one that does not demangle, comes back as it is; null gives "".
#include <string>

namespace strata {

std::string demangledSymbol(const char* symbol);

} // namespace strata
