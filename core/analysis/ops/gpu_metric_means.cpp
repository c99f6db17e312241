#include "analysis/ops/gpu_metric_means.h"

#include "analysis/memory_usage.h"
#include "analysis/ops/gpu_ops.h"
#include "model/names/track_names.h"

#include <algorithm>
#include <climits>
#include <map>

namespace strata {

namespace {

// The integral of `row`'s step function over [start, end), and the time its samples cover.
std::pair<double, TimeNs> integrate(const CounterColumns& c, TimeNs start, TimeNs end) {
    double sum = 0;
    TimeNs covered = 0;
    auto at = std::upper_bound(c.ts.begin(), c.ts.end(), start);
    size_t i = at == c.ts.begin() ? 0 : size_t(at - c.ts.begin()) - 1;
    for (; i + 1 < c.size() && c.ts[i] < end; ++i) {
        const TimeNs a = std::max(c.ts[i], start), b = std::min(c.ts[i + 1], end);
        if (b <= a) continue;
        sum += c.value[i] * double(b - a);
        covered += b - a;
    }
    return {sum, covered};
}

int32_t deviceOf(const Trace& t, SliceRef op) {
    const Track& tr = t.track(op.track);
    if (tr.kind == TrackKind::GpuStream) return tr.device;
    const GpuActivity* a = t.gpu(op);
    return a ? a->device : -1;
}

} // namespace

std::optional<std::pair<int32_t, std::string>> gpuMetricOf(std::string_view counterName) {
    if (memoryCounterDevice(counterName) >= 0) return std::nullopt;
    return parseGpuCounterName(counterName);
}

std::vector<GpuMetricRow> gpuMetricRows(const Trace& trace) {
    std::vector<GpuMetricRow> rows;
    for (TrackId t = 0; t < trace.tracks().size(); ++t) {
        const Track& tr = trace.track(t);
        if (tr.kind != TrackKind::Counter || tr.counter.size() == 0) continue;
        if (auto parsed = gpuMetricOf(trace.str(tr.name)))
            rows.push_back({parsed->first, std::move(parsed->second), t});
    }
    std::sort(rows.begin(), rows.end(), [](const GpuMetricRow& a, const GpuMetricRow& b) {
        return std::tie(a.device, a.metric, a.track) < std::tie(b.device, b.metric, b.track);
    });
    return rows;
}

std::vector<MetricMean> gpuMetricMeans(const Trace& trace, const std::vector<GpuMetricRow>& rows,
                                       SliceRef op) {
    std::vector<MetricMean> out;
    if (!op.valid()) return out;
    const int32_t device = deviceOf(trace, op);
    const TimeNs start = trace.start(op), end = start + trace.duration(op);
    for (const GpuMetricRow& r : rows) {
        if (r.device != device) continue;
        const auto [sum, covered] = integrate(trace.track(r.track).counter, start, end);
        if (covered > 0) out.push_back({r.metric, sum / double(covered), covered});
    }
    return out;
}

std::vector<KernelMetricMeans> kernelMetricMeans(const Trace& trace, const GpuOpList& ops) {
    const std::vector<GpuMetricRow> rows = gpuMetricRows(trace);
    if (rows.empty()) return {};
    // Each row's metric as an index into the metric names (in name order), and each device's
    // rows, so that a run's sums are found by position, not by name.
    std::vector<std::string> metrics;
    for (const GpuMetricRow& r : rows) metrics.push_back(r.metric);
    std::sort(metrics.begin(), metrics.end());
    metrics.erase(std::unique(metrics.begin(), metrics.end()), metrics.end());
    std::map<int32_t, std::vector<std::pair<size_t, const Track*>>> rowsOf; // device -> rows
    for (const GpuMetricRow& r : rows)
        rowsOf[r.device].push_back(
            {size_t(std::lower_bound(metrics.begin(), metrics.end(), r.metric) - metrics.begin()),
             &trace.track(r.track)});
    struct Sums {
        uint64_t runs = 0;
        TimeNs total = 0;
        std::vector<std::pair<double, TimeNs>> metric; // by metric index: integral, covered
    };
    std::map<StringId, Sums> byName;
    const std::vector<std::pair<size_t, const Track*>> none;
    const std::vector<std::pair<size_t, const Track*>>* deviceRows = &none;
    int32_t device = INT32_MIN; // of deviceRows (ops come by device)
    for (const GpuOp& op : ops.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        if (op.device != device) {
            device = op.device;
            const auto it = rowsOf.find(device);
            deviceRows = it == rowsOf.end() ? &none : &it->second;
        }
        Sums& s = byName[trace.track(op.ref.track).slices.name[op.ref.index]];
        ++s.runs;
        s.total += op.duration();
        if (s.metric.empty()) s.metric.assign(metrics.size(), {0.0, 0});
        for (const auto& [metric, track] : *deviceRows) {
            const auto [sum, covered] = integrate(track->counter, op.start, op.end);
            s.metric[metric].first += sum, s.metric[metric].second += covered;
        }
    }
    std::vector<KernelMetricMeans> out;
    for (const auto& [name, s] : byName) {
        KernelMetricMeans k{name, std::string(trace.str(name)), s.runs, s.total, {}};
        for (size_t m = 0; m < metrics.size(); ++m)
            if (const auto [sum, covered] = s.metric[m]; covered > 0)
                k.means.push_back({metrics[m], sum / double(covered), covered});
        out.push_back(std::move(k));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const KernelMetricMeans& a, const KernelMetricMeans& b) {
                         return a.totalNs > b.totalNs;
                     });
    return out;
}

} // namespace strata
