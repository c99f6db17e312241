#include "cli_options.h"

#include "io/trace_loader.h"
#include "util/terminal_text.h"

#include <cmath>
#include <cstdio>

namespace strata::cli {

std::shared_ptr<const Trace> loadTraceOrSay(const char* command, const std::string& file) {
    const LoadResult loaded = loadTrace(file);
    if (!loaded.ok()) {
        std::fprintf(stderr, "strata-cli %s: %s\n", command,
                     terminalSafe(loaded.error ? loaded.error->toString() : file).c_str());
        return nullptr;
    }
    return loaded.trace;
}

bool parseRangeUs(const std::string& value, std::pair<double, double>* out) {
    double s = 0, e = 0;
    if (std::sscanf(value.c_str(), "%lf:%lf", &s, &e) != 2 || !(s >= 0 && e > s)) return false;
    *out = {s, e};
    return true;
}

TimeRange rangeFromUs(const Trace& trace, const std::optional<std::pair<double, double>>& us) {
    if (!us) return wholeTrace();
    const TimeNs origin = trace.bounds().start;
    return {origin + TimeNs(std::llround(us->first * 1000)),
            origin + TimeNs(std::llround(us->second * 1000))};
}

} // namespace strata::cli
