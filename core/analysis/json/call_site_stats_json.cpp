#include "analysis/json/call_site_stats_json.h"

#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

nlohmann::json callSiteStatsToJson(const CallSiteStats& st) {
    nlohmann::json sites = nlohmann::json::array();
    for (const CallSiteRow& r : st.sites) {
        nlohmann::json kernels = nlohmann::json::array();
        for (const CallSiteKernel& k : r.kernels)
            kernels.push_back({{"name", k.name},
                               {"count", k.count},
                               {"total_us", us(double(k.total))},
                               {"mean_us", us(k.mean)}});
        sites.push_back({{"site", r.site.empty() ? nlohmann::json() : nlohmann::json(r.site)},
                         {"count", r.count},
                         {"total_us", us(double(r.total))},
                         {"mean_us", us(r.mean)},
                         {"share", r.share},
                         {"kernels", kernels}});
    }
    return sites;
}

} // namespace strata
