#pragma once
// What several strata-cli subcommands share: loading FILE with the error printed as
// "strata-cli CMD: ...", and the --range-us START:END option (microseconds from the trace start).
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace strata::cli {

// The trace in `file`, or null after printing why to stderr.
std::shared_ptr<const Trace> loadTraceOrSay(const char* command, const std::string& file);

// "START:END" with 0 <= START < END; false when malformed.
bool parseRangeUs(const std::string& value, std::pair<double, double>* out);
// The range in trace time (whole trace when none).
TimeRange rangeFromUs(const Trace& trace, const std::optional<std::pair<double, double>>& us);

} // namespace strata::cli
