#pragma once
// What the GPU's own counters said while each kernel ran (issue 51): a GPU metric is a counter row
// named `GPU <device> <metric>` (gpuCounterName: Nsight Systems' GPU metrics, rpd's monitors,
// Strata's own GPU metric rows), its value holding from each sample until the next, as the
// timeline draws it (the last sample holds for no time). A run's mean of a metric is the
// time-weighted mean of that metric's row of the run's device over [start, end) of the run, over
// the part of the run a sample covers (coveredNs); a run no sample covers has no mean of it. Per
// kernel name, the means of all its runs weighted by the time each covered. What the Details dock
// shows for one kernel and `strata-cli stats --gpu-metrics` for every kernel name.
#include "model/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

struct GpuOpList;

struct GpuMetricRow {
    int32_t device = -1;
    std::string metric;
    TrackId track = 0;
};

// A counter row's GPU and metric when it is a GPU metric: a GPU counter's name
// (parseGpuCounterName) that is not the collector's memory counter ("GPU 0 memory allocated
// (bytes)", memory_usage.h: drawn in its device's memory row, not a hardware metric).
std::optional<std::pair<int32_t, std::string>> gpuMetricOf(std::string_view counterName);
// Every GPU metric row of the trace, by (device, metric).
std::vector<GpuMetricRow> gpuMetricRows(const Trace& trace);

struct MetricMean {
    std::string metric;
    double mean = 0;
    TimeNs coveredNs = 0; // of the run(s), by the metric's samples
};

// The means over one GPU op's run of its device's metrics, by metric name (those that cover it).
std::vector<MetricMean> gpuMetricMeans(const Trace& trace, const std::vector<GpuMetricRow>& rows,
                                       SliceRef op);

struct KernelMetricMeans {
    StringId nameId = 0;
    std::string name;  // the kernel's
    uint64_t runs = 0; // of the kernel, those some metric covers or not
    TimeNs totalNs = 0;
    std::vector<MetricMean> means; // by metric name
};
// Per kernel name (kernels only, not copies or sets), by total time descending; empty when the
// trace has no GPU metric rows.
std::vector<KernelMetricMeans> kernelMetricMeans(const Trace& trace, const GpuOpList& ops);

} // namespace strata
