#pragma once
// Opens any file Strata reads: the reader that recognises it (io/trace_reader.h: by content,
// not by extension) loads it, and the result says which format it was (LoadResult::format).
#include "io/load_result.h"

#include <string>

namespace strata {

LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

// The readers' own entry points, for callers that know the format (tests, the fuzzers).
LoadResult readChromeJson(const std::string& path, const LoadOptions& options);
LoadResult readStrataTrace(const std::string& path, const LoadOptions& options);

} // namespace strata
