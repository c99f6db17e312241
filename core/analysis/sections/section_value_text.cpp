#include "analysis/sections/section_value_text.h"

#include "model/names/time_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace strata {

std::string formatSectionValue(double value, bool ns) {
    if (!ns) { // to a tenth of a cycle, shown when there is one
        const long long tenths = std::llround(value * 10);
        std::string whole = std::to_string(std::llabs(tenths / 10)), text;
        for (size_t i = 0; i < whole.size(); ++i) {
            if (i && (whole.size() - i) % 3 == 0) text += "\xE2\x80\x89"; // thin space
            text += whole[i];
        }
        if (tenths < 0) text.insert(0, "-");
        if (tenths % 10) text += "." + std::to_string(std::llabs(tenths % 10));
        return text + " cycles";
    }
    if (value < 999.95) {
        if (value == std::trunc(value))
            return std::to_string(static_cast<long long>(value)) + " ns";
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*f ns", value < 10 ? 3 : value < 100 ? 2 : 1, value);
        return buf;
    }
    return formatDuration(TimeNs(std::llround(value)));
}

} // namespace strata
