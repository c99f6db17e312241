#include "analysis/json/advice_json.h"

#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

nlohmann::json adviceToJson(const Advice& a, TimeNs origin) {
    nlohmann::json j;
    j["warnings"] = a.warnings;
    j["basis_us"] = us(double(a.basis));
    j["basis"] = a.basisIsSteps ? "steps" : "span";
    nlohmann::json list = nlohmann::json::array();
    for (const Finding& f : a.findings) {
        nlohmann::json ev = nlohmann::json::object();
        for (const auto& [k, v] : f.evidence) ev[k] = v;
        nlohmann::json where = nlohmann::json::array();
        for (const TimeRange& w : f.where)
            where.push_back({us(double(w.start - origin)), us(double(w.end - origin))});
        list.push_back({{"rule", f.rule},
                        {"severity", findingSeverityName(f.severity)},
                        {"title", f.title},
                        {"detail", f.detail},
                        {"saving_us", us(double(f.saving))},
                        {"saving_share", f.savingShare},
                        {"evidence", ev},
                        {"where_us", where}});
    }
    j["findings"] = list;
    return j;
}

} // namespace strata
