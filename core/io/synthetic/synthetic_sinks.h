#pragma once
// The synthetic program's other forms (synthetic_trace.h): a .strata recording and a Trace built
// in memory. Internal to core/io.
#include "io/synthetic/synthetic_trace.h"

namespace strata {

bool writeSyntheticStrata(const SynthOptions& options, const std::string& path, SynthTotals* totals,
                          std::string* error);

} // namespace strata
