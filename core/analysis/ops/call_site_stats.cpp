#include "analysis/ops/call_site_stats.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata {

CallSiteStats callSiteStats(const OpStats& bySite) {
    CallSiteStats out;
    out.kernelTime = bySite.kernelTime;
    std::map<std::string, CallSiteRow> rows;
    for (const KernelRow& k : bySite.kernels) {
        CallSiteRow& r = rows[k.launchedBy];
        r.site = k.launchedBy;
        r.count += k.time.count;
        r.total += k.time.total;
        r.kernels.push_back({k.nameId, k.name, k.time.count, k.time.total, k.time.mean});
    }
    for (auto& [site, r] : rows) {
        r.mean = r.count ? double(r.total) / double(r.count) : 0;
        r.share = out.kernelTime > 0 ? double(r.total) / double(out.kernelTime) : 0;
        std::stable_sort(r.kernels.begin(), r.kernels.end(),
                         [](const CallSiteKernel& a, const CallSiteKernel& b) {
                             return std::tie(b.total, a.name) < std::tie(a.total, b.name);
                         });
        out.sites.push_back(std::move(r));
    }
    std::stable_sort(out.sites.begin(), out.sites.end(),
                     [](const CallSiteRow& a, const CallSiteRow& b) { return a.total > b.total; });
    return out;
}

} // namespace strata
