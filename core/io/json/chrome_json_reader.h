#pragma once
// Chrome Trace Event JSON (PyTorch profiler/Kineto, JAX, chrome://tracing, Perfetto exports):
// object form {"traceEvents": [...], ...} or bare array form, plain or gzip.
//
// Streaming: one thread reads the input in chunks (inflating gzip) and splits out complete
// events; the calling thread parses them with simdjson On-Demand and feeds a TraceBuilder.
// Timestamps are converted from decimal microseconds to integer nanoseconds exactly (ties to
// even). A truncated file loads every complete event and warns; malformed input is an error with
// byte offset and line. Limits: 64 levels of nesting inside an event, 64 MiB per event, 16 MiB
// per kept top-level value (larger ones are skipped with a warning).
//
// readChromeJson(path, options) is declared in io/trace_loader.h.
#include "io/trace_loader.h"

#include <string>
#include <string_view>

namespace strata {

// Same reader over memory (plain or gzip), single-threaded; `name` is used in messages.
LoadResult readChromeJsonBuffer(std::string_view data, const std::string& name,
                                const LoadOptions& options = {});

} // namespace strata
