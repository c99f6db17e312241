#include "analysis/samples/sample_period.h"

#include "contract/collector_env.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace strata {
namespace {

// A positive rate in Hz at the start of `text`, or 0.
double rateOf(const std::string& text) {
    char* end = nullptr;
    const double hz = std::strtod(text.c_str(), &end);
    return end != text.c_str() && std::isfinite(hz) && hz > 0 && hz <= 1e9 ? hz : 0;
}

} // namespace

TimeNs samplePeriod(const Trace& trace, uint8_t kind) {
    const auto& meta = trace.metadata();
    double hz = 0;
    if (kind == uint8_t(StackKind::Native)) {
        if (const auto it = meta.find(kMetaCpuSample); it != meta.end()) hz = rateOf(it->second);
    } else {
        if (const auto it = meta.find(kMetaPythonSampleHz); it != meta.end())
            hz = rateOf(it->second);
        if (hz == 0)
            if (const auto it = meta.find(collector_env::kMetaPython);
                it != meta.end() && it->second.rfind("sample=", 0) == 0)
                hz = rateOf(it->second.substr(7));
    }
    if (hz > 0) return std::max<TimeNs>(1, std::llround(1e9 / hz));
    return trace.stackSamples().medianInterval();
}

TimeNs samplePeriod(const Trace& trace) {
    const StackSamples& k = trace.stackSamples();
    const bool python = std::memchr(k.kind.data(), int(StackKind::Python), k.kind.size());
    return samplePeriod(trace, uint8_t(python ? StackKind::Python : StackKind::Native));
}

} // namespace strata
