#include "analysis/json/op_stats_json.h"

#include "analysis/json/json_units.h"
#include "model/names/cupti_names.h"

namespace strata {

using json_units::us;

nlohmann::json opStatsToJson(const OpStats& st, const GapCauses& gaps, bool groupByOp) {
    nlohmann::json j;
    j["warnings"] = gaps.warnings;
    j["kernel_time_us"] = us(double(st.kernelTime));
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceGapStats& d : gaps.devices) {
        const TimeNs span = d.lastEnd - d.firstStart;
        devices.push_back({{"device", d.device},
                           {"span_us", us(double(span))},
                           {"busy_us", us(double(d.busy))},
                           {"idle_us", us(double(d.idle))},
                           {"busy_share", span > 0 ? double(d.busy) / double(span) : 0.0}});
    }
    j["devices"] = devices;
    nlohmann::json steps = nlohmann::json::array();
    for (const StepGaps& s : gaps.steps) {
        const TimeNs len = s.step.end - s.step.start;
        steps.push_back({{"name", s.step.name},
                         {"device", s.device},
                         {"dur_us", us(double(len))},
                         {"busy_us", us(double(len - s.idle))},
                         {"idle_us", us(double(s.idle))}});
    }
    j["steps"] = steps;
    nlohmann::json cats = nlohmann::json::array();
    for (const CategoryRow& c : st.categories)
        cats.push_back({{"category", kernelCategoryName(c.category)},
                        {"count", c.count},
                        {"time_us", us(double(c.time))},
                        {"share", c.share}});
    j["categories"] = cats;
    nlohmann::json ks = nlohmann::json::array();
    for (const KernelRow& k : st.kernels)
        ks.push_back({{"name", k.name},
                      {"launched_by", groupByOp ? nlohmann::json(k.launchedBy) : nlohmann::json()},
                      {"category", kernelCategoryName(k.category)},
                      {"count", k.time.count},
                      {"total_us", us(double(k.time.total))},
                      {"mean_us", us(k.time.mean)},
                      {"min_us", us(double(k.time.min))},
                      {"max_us", us(double(k.time.max))},
                      {"median_us", us(double(k.time.median))},
                      {"p95_us", us(double(k.time.p95))},
                      {"share", k.share},
                      {"configs", k.configs},
                      {"config_count", k.configCount},
                      {"launched", k.launched},
                      {"launch_latency_mean_us",
                       k.launched ? nlohmann::json(us(k.launchLatencyMean)) : nlohmann::json()},
                      {"launch_call_mean_us",
                       k.launched ? nlohmann::json(us(k.launchCallMean)) : nlohmann::json()}});
    j["kernels"] = ks;
    nlohmann::json ops = nlohmann::json::array();
    for (const CpuOpRow& c : st.cpuOps)
        ops.push_back({{"name", c.name},
                       {"count", c.count},
                       {"total_us", us(double(c.total))},
                       {"self_us", us(double(c.self))},
                       {"gpu_ops", c.gpuOps},
                       {"gpu_us", us(double(c.gpuTime))}});
    j["cpu_ops"] = ops;
    nlohmann::json copies = nlohmann::json::array();
    for (const CopyRow& c : st.copies)
        copies.push_back({{"kind", std::string(copyKindName(c.copyKind))},
                          {"pageable", c.pageable},
                          {"count", c.count},
                          {"bytes", c.bytes},
                          {"time_us", us(double(c.time))},
                          {"gb_per_s", c.gbPerSecond}});
    j["copies"] = copies;
    return j;
}

} // namespace strata
