#pragma once
// What a trace file says about itself (analysis/trace_info.h) as `strata-cli info --json` prints
// it, in this order:
// {"file": str, "format": str, "run": {...} | null, "metadata": {str: str},
//  "no_gpu_reason": str | null, "sections": {"launches": n, "kernels": n, "imported": [str]},
//  "stack_samples": {"samples": n, "threads": n} (only when it has any)};
// "run" as runInfoToJson writes it.
#include "analysis/trace_info.h"

#include <string>

namespace strata {

std::string traceInfoToJson(const TraceInfo& info);

} // namespace strata
