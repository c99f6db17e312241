#pragma once
// The .strata reader (format: io/strata_format.h). readStrataTrace(path) is declared in
// io/trace_loader.h and reached through loadTrace; this adds the same load over bytes in
// memory (fuzzing, tests, a future network source).
#include "model/load_result.h"

#include <string>
#include <string_view>

namespace strata {

// `name` stands for the file in messages.
LoadResult readStrataBuffer(std::string_view bytes, const std::string& name,
                            const LoadOptions& options = {});

} // namespace strata
