#pragma once
// Opens any trace Strata reads: sniffs the content (not the extension) and dispatches to
// the Chrome/Kineto JSON reader (plain or gzip) or the .strata reader.
#include "io/load_result.h"

#include <string>

namespace strata {

enum class TraceFormat { Unknown, ChromeJson, ChromeJsonGzip, Strata };

TraceFormat sniffTraceFormat(const std::string& path, std::string* error = nullptr);
LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

// Implemented by each reader.
LoadResult readChromeJson(const std::string& path,
                          const LoadOptions& options); // chrome_json_reader.cpp
LoadResult readStrataTrace(const std::string& path,
                           const LoadOptions& options); // strata_trace_reader.cpp

} // namespace strata
