#include "analysis/json/roofline_json.h"

#include "analysis/json/json_units.h"

namespace strata {

namespace {

nlohmann::json orNull(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename Value> nlohmann::json byPrecision(const std::array<Value, kFlopPrecisions>& v) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t p = 0; p < kFlopPrecisions; ++p) {
        if constexpr (std::is_same_v<Value, double>)
            j[std::string(flopPrecisionName(FlopPrecision(p)))] = v[p];
        else
            j[std::string(flopPrecisionName(FlopPrecision(p)))] = orNull(v[p]);
    }
    return j;
}

const char* boundName(RooflineBound b) {
    switch (b) {
    case RooflineBound::Memory:
        return "memory";
    case RooflineBound::Compute:
        return "compute";
    case RooflineBound::Unknown:
        break;
    }
    return "unknown";
}

} // namespace

nlohmann::json rooflineToJson(const Trace& trace, const Roofline& r) {
    nlohmann::json devices = nlohmann::json::array();
    for (const RooflineCeilings& c : r.devices)
        devices.push_back({{"device", c.device},
                           {"dram_bytes_per_s", orNull(c.bytesPerSecond)},
                           {"flops_per_s", byPrecision(c.flopsPerSecond)}});
    nlohmann::json kernels = nlohmann::json::array();
    for (const RooflineKernel& k : r.kernels) {
        kernels.push_back({{"name", std::string(trace.str(k.nameId))},
                           {"device", k.device},
                           {"launches", k.launches},
                           {"flops", byPrecision(k.flops)},
                           {"bytes", k.bytes},
                           {"time_us", json_units::us(k.seconds * 1e9)},
                           {"precision", std::string(flopPrecisionName(k.precision))},
                           {"intensity", orNull(k.intensity())},
                           {"achieved_flops_per_s", orNull(k.achieved())},
                           {"attainable_flops_per_s", orNull(k.attainable)},
                           {"roof_share", orNull(k.roofShare())},
                           {"bound", boundName(k.bound)}});
    }
    return {{"launches_measured", r.launches.size()},
            {"launches_incomplete", r.incomplete},
            {"devices", std::move(devices)},
            {"kernels", std::move(kernels)}};
}

} // namespace strata
