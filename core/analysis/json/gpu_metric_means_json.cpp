#include "analysis/json/gpu_metric_means_json.h"

#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

nlohmann::json kernelMetricMeansToJson(const std::vector<KernelMetricMeans>& kernels) {
    nlohmann::json rows = nlohmann::json::array();
    for (const KernelMetricMeans& k : kernels) {
        nlohmann::json means = nlohmann::json::object();
        for (const MetricMean& m : k.means)
            means[m.metric] = {{"mean", m.mean}, {"covered_us", us(double(m.coveredNs))}};
        rows.push_back({{"name", k.name},
                        {"runs", k.runs},
                        {"total_us", us(double(k.totalNs))},
                        {"means", std::move(means)}});
    }
    return rows;
}

} // namespace strata
