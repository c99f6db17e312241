#include "frame_sweep.h"

#include <algorithm>
#include <cmath>

namespace strata {

double frameSweepWindow(TimeRange bounds, int level) {
    const double full = static_cast<double>(std::max<TimeNs>(bounds.duration(), 1000));
    return full * std::pow(1000.0 / full, level / double(kSweepLevels - 1));
}

std::vector<TimeRange> frameSweep(TimeRange bounds) {
    std::vector<TimeRange> out;
    out.reserve(kSweepLevels * kSweepPerLevel);
    for (int lv = 0; lv < kSweepLevels; ++lv) {
        const auto dur = static_cast<TimeNs>(frameSweepWindow(bounds, lv));
        for (double pos : {0.1, 0.3, 0.5, 0.7, 0.9}) {
            const TimeNs centre = bounds.start + static_cast<TimeNs>(pos * bounds.duration());
            for (int pan = 0; pan < 3; ++pan) {
                const TimeNs s = centre - dur / 2 + pan * (dur / 10);
                out.push_back({s, s + dur});
            }
        }
    }
    return out;
}

} // namespace strata
