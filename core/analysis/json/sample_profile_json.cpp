#include "analysis/json/sample_profile_json.h"

namespace strata {

nlohmann::json sampleProfileToJson(const Trace& trace, const SampleProfile& p) {
    nlohmann::json j;
    j["samples"] = p.samples;
    j["empty_samples"] = p.emptySamples;
    j["threads"] = p.threads;
    j["period_ns"] = p.period > 0 ? nlohmann::json(p.period) : nlohmann::json();
    nlohmann::json list = nlohmann::json::array();
    for (const SampleFunction& f : p.functions)
        list.push_back({{"name", std::string(trace.str(f.frame))},
                        {"self", f.self},
                        {"total", f.total},
                        {"self_share", f.selfShare},
                        {"total_share", f.totalShare}});
    j["functions"] = std::move(list);
    return j;
}

} // namespace strata
