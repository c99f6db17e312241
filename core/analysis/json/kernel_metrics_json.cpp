#include "analysis/json/kernel_metrics_json.h"

#include "analysis/json/json_units.h"

#include <algorithm>

namespace strata {

using json_units::us;

namespace {

nlohmann::json orNull(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
}

} // namespace

void addKernelMetricsToJson(nlohmann::json& stats, const OpStats& st, const KernelMetrics& m) {
    nlohmann::json& rows = stats["kernels"];
    for (size_t i = 0; i < st.kernels.size() && i < rows.size(); ++i) {
        const KernelNameMetrics* k = m.find(st.kernels[i].nameId);
        rows[i]["tensor_cores"] = k && k->tensorCores;
        rows[i]["blocks_per_sm"] = k ? orNull(k->blocksPerSm) : nlohmann::json();
        rows[i]["achieved_occupancy_pct"] = k ? orNull(k->occupancyPct) : nlohmann::json();
    }
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceKernelMetrics& d : m.byDevice)
        devices.push_back({{"device", d.device},
                           {"kernel_time_us", us(double(d.kernelTime))},
                           {"tensor_core_us", us(double(d.tensorCoreTime))},
                           {"tensor_core_share", d.tensorCoreShare},
                           {"sm_efficiency", orNull(d.smEfficiency)},
                           {"achieved_occupancy_pct", orNull(d.occupancyPct)}});
    stats["kernel_metrics"] = {{"window_us", us(double(std::max<TimeNs>(m.window.duration(), 0)))},
                               {"kernel_time_us", us(double(m.kernelTime))},
                               {"tensor_core_us", us(double(m.tensorCoreTime))},
                               {"tensor_core_share", m.tensorCoreShare},
                               {"kernels_with_blocks_per_sm", m.withBlocksPerSm},
                               {"kernels_with_occupancy", m.withOccupancy},
                               {"devices", devices}};
}

} // namespace strata
