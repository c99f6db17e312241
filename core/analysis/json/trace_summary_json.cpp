#include "analysis/json/trace_summary_json.h"

#include <algorithm>

namespace strata {

nlohmann::json summaryToJson(const TraceSummary& s, const std::string& file, size_t topKernels) {
    using nlohmann::json;
    json j;
    j["file"] = file;
    j["slices"] = s.slices;
    j["counters"] = s.counterSamples;
    j["instants"] = s.instants;
    j["flows"] = s.flows;
    j["warnings"] = s.warnings;
    if (!isWholeTrace(s.kernels.range))
        j["range_us"] = {toMicros(s.kernels.range.start), toMicros(s.kernels.range.end)};

    const KernelStats& k = s.kernels;
    json gpu;
    gpu["kernels"] = k.kernels;
    gpu["memcpy"] = k.memcpys;
    gpu["memset"] = k.memsets;
    gpu["kernel_time_us"] = toMicros(k.kernelTime);
    gpu["busy_us"] = toMicros(k.busyTime);
    gpu["off_gpu_track"] = k.offGpuTrack;
    json byDevice = json::object(), busyByDevice = json::object();
    for (const DeviceGpuTime& d : k.byDevice) {
        byDevice[std::to_string(d.device)] = toMicros(d.kernelTime);
        busyByDevice[std::to_string(d.device)] = toMicros(d.busyTime);
    }
    gpu["kernel_time_us_by_device"] = byDevice;
    gpu["busy_us_by_device"] = busyByDevice;
    json top = json::array();
    for (size_t i = 0; i < std::min(topKernels, k.byName.size()); ++i) {
        const KernelNameStats& n = k.byName[i];
        top.push_back({{"name", n.name},
                       {"count", n.time.count},
                       {"total_us", toMicros(n.time.total)},
                       {"mean_us", n.time.mean / 1000.0},
                       {"min_us", toMicros(n.time.min)},
                       {"max_us", toMicros(n.time.max)},
                       {"median_us", toMicros(n.time.median)},
                       {"p95_us", toMicros(n.time.p95)},
                       {"share_of_busy", n.shareOfBusy}});
    }
    gpu["top_kernels"] = top;
    gpu["kernel_names"] = k.byName.size();
    j["gpu"] = gpu;

    json gaps;
    gaps["threshold_us"] = toMicros(s.gaps.threshold);
    json streams = json::array();
    for (const StreamGapStats& st : s.gaps.byStream) {
        streams.push_back({{"device", st.device},
                           {"stream", st.stream},
                           {"kernels", st.kernels},
                           {"gaps", st.gaps},
                           {"gaps_over_threshold", st.gapsOverThreshold},
                           {"idle_us", toMicros(st.idle)},
                           {"longest_us", toMicros(st.longest)}});
    }
    gaps["by_stream"] = streams;
    json devices = json::array();
    for (const DeviceGapStats& d : s.gaps.byDevice) {
        devices.push_back({{"device", d.device},
                           {"ops", d.ops},
                           {"gaps", d.gaps},
                           {"gaps_over_threshold", d.gapsOverThreshold},
                           {"idle_us", toMicros(d.idle)},
                           {"longest_us", toMicros(d.longest)},
                           {"busy_us", toMicros(d.busy)}});
    }
    gaps["by_device"] = devices;
    j["gaps"] = gaps;

    const LaunchLatencyStats& l = s.launch;
    j["launch_latency"] = {{"kernels", l.kernels},
                           {"matched", l.latency.count},
                           {"unmatched", l.unmatched},
                           {"unmatched_without_correlation", l.noCorrelation},
                           {"negative", l.negative},
                           {"mean_us", l.latency.mean / 1000.0},
                           {"min_us", toMicros(l.latency.min)},
                           {"max_us", toMicros(l.latency.max)},
                           {"median_us", toMicros(l.latency.median)},
                           {"p95_us", toMicros(l.latency.p95)}};

    json memory = json::array();
    for (const MemoryPeak& m : s.memory) {
        json d{{"device", m.device},
               {"peak_bytes", m.bytes},
               {"peak_ts_us", toMicros(m.at)},
               {"samples", m.samples}};
        if (m.recordedDevice != m.device) d["recorded_device"] = m.recordedDevice;
        if (m.reserved >= 0) d["reserved_peak_bytes"] = m.reserved;
        if (m.summed) d["running_sum"] = true;
        memory.push_back(std::move(d));
    }
    j["memory"] = memory;
    return j;
}

} // namespace strata
