#include "analysis/ops/kernel_metrics.h"

#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/step_roles.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace strata {

namespace {

// Kineto's two args of a kernel, as numbers (absent: not carried, or not a number).
struct KernelArgs {
    std::optional<double> blocksPerSm, occupancyPct;
};

// Reads them through the trace's arg store, once per arg set (equal sets are stored once, so
// the kernels of one launch configuration share theirs).
class KernelArgReader {
public:
    explicit KernelArgReader(const Trace& t)
        : t_(t), blocksKey_(t.strings().find("blocks per SM")),
          occupancyKey_(t.strings().find("est. achieved occupancy %")),
          any_(blocksKey_ != StringPool::kNotFound || occupancyKey_ != StringPool::kNotFound) {}

    KernelArgs operator()(SliceRef r) {
        if (!any_) return {};
        const ArgSetId id = t_.track(r.track).slices.args[r.index];
        if (id == kNoArgs) return {};
        auto [it, added] = cache_.try_emplace(id);
        if (added) {
            it->second.blocksPerSm = number(id, blocksKey_);
            it->second.occupancyPct = number(id, occupancyKey_);
        }
        return it->second;
    }

private:
    std::optional<double> number(ArgSetId id, StringId key) const {
        ArgValue v;
        if (key == StringPool::kNotFound || !t_.argStore().find(id, key, &v) || !v.isNumber())
            return std::nullopt;
        return v.toDouble();
    }
    const Trace& t_;
    StringId blocksKey_, occupancyKey_;
    bool any_;
    std::unordered_map<ArgSetId, KernelArgs> cache_;
};

// A duration-weighted mean in the making.
struct WeightedMean {
    double sum = 0, weight = 0;
    uint64_t count = 0;
    void add(double value, TimeNs dur) {
        sum += value * double(dur);
        weight += double(dur);
        ++count;
    }
    std::optional<double> mean() const {
        if (!count) return std::nullopt;
        return weight > 0 ? sum / weight : 0.0;
    }
};

// One kernel's blocks per SM, running over [start, end) (clipped to the window).
struct SmSpan {
    TimeNs start, end;
    double blocksPerSm;
};

// The plugin's Est. SM efficiency: min(sum of the running kernels' blocks per SM, 1) integrated
// over time, divided by the window's length.
std::optional<double> smEfficiency(const std::vector<SmSpan>& spans, TimeRange window) {
    if (spans.empty() || window.duration() <= 0) return std::nullopt;
    struct Edge {
        TimeNs t;
        bool end;
        double v;
    };
    std::vector<Edge> edges;
    edges.reserve(spans.size() * 2);
    for (const SmSpan& s : spans) {
        edges.push_back({s.start, false, s.blocksPerSm});
        edges.push_back({s.end, true, s.blocksPerSm});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
        return a.t != b.t ? a.t < b.t : a.end < b.end; // starts before ends at one time
    });
    double integral = 0, level = 0;
    size_t running = 0;
    TimeNs last = edges.front().t;
    for (const Edge& e : edges) {
        if (e.t > last && running > 0 && level > 0)
            integral += std::min(level, 1.0) * double(e.t - last);
        last = e.t;
        if (e.end) {
            level -= e.v;
            if (--running == 0) level = 0; // no drift left behind by the additions
        } else {
            level += e.v;
            ++running;
        }
    }
    return integral / double(window.duration());
}

struct DeviceParts {
    DeviceKernelMetrics m;
    std::vector<SmSpan> sm;
    double occupancySum = 0;
    TimeNs occupancyTime = 0;
};

} // namespace

bool usesTensorCores(std::string_view name) {
    static constexpr std::string_view kPatterns[] = {"h884",
                                                     "s884",
                                                     "h1688",
                                                     "s1688",
                                                     "hmma",
                                                     "i8816",
                                                     "16816",
                                                     "dgrad_1x1_stride_2x2",
                                                     "first_layer_wgrad_kernel",
                                                     "conv1x1",
                                                     "conv2d_c1_k1",
                                                     "direct_group",
                                                     "xmma_implicit_gemm",
                                                     "xmma_sparse_conv",
                                                     "xmma_warp_specialized_implicit_gemm",
                                                     "xmma_gemm",
                                                     "xmma_sparse_gemm",
                                                     "c1688"};
    for (std::string_view p : kPatterns)
        if (name.find(p) != std::string_view::npos) return true;
    return false;
}

const KernelNameMetrics* KernelMetrics::find(StringId nameId) const {
    auto it =
        std::lower_bound(byName.begin(), byName.end(), nameId,
                         [](const KernelNameMetrics& m, StringId id) { return m.nameId < id; });
    return it != byName.end() && it->nameId == nameId ? &*it : nullptr;
}

KernelMetrics computeKernelMetrics(const Trace& trace, const GpuOpList& list, TimeRange window) {
    KernelMetrics out;
    out.window = window;
    KernelArgReader argsOf(trace);
    struct NameParts {
        bool tensorCores = false;
        WeightedMean blocks, occupancy;
    };
    std::unordered_map<StringId, NameParts> names;
    std::map<int32_t, DeviceParts> devices;
    for (const GpuOp& op : list.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const StringId nameId = trace.track(op.ref.track).slices.name[op.ref.index];
        auto [it, added] = names.try_emplace(nameId);
        NameParts& n = it->second;
        if (added) n.tensorCores = usesTensorCores(trace.str(nameId));
        const TimeNs dur = op.duration();
        DeviceParts& d = devices[op.device];
        d.m.device = op.device;
        d.m.kernelTime = addSaturating(d.m.kernelTime, dur);
        if (n.tensorCores) d.m.tensorCoreTime = addSaturating(d.m.tensorCoreTime, dur);
        const KernelArgs a = argsOf(op.ref);
        const TimeNs s = std::max(op.start, window.start), e = std::min(op.end, window.end);
        if (a.blocksPerSm) {
            n.blocks.add(*a.blocksPerSm, dur);
            ++out.withBlocksPerSm;
            if (*a.blocksPerSm > 0 && s < e) d.sm.push_back({s, e, *a.blocksPerSm});
        }
        if (a.occupancyPct) {
            n.occupancy.add(*a.occupancyPct, dur);
            ++out.withOccupancy;
            if (*a.occupancyPct >= 0 && s < e) {
                d.occupancySum += *a.occupancyPct * double(e - s);
                d.occupancyTime += e - s;
            }
        }
    }
    out.byName.reserve(names.size());
    for (const auto& [id, n] : names)
        out.byName.push_back({id, n.tensorCores, n.blocks.mean(), n.occupancy.mean()});
    std::sort(
        out.byName.begin(), out.byName.end(),
        [](const KernelNameMetrics& a, const KernelNameMetrics& b) { return a.nameId < b.nameId; });
    for (auto& [device, d] : devices) {
        d.m.tensorCoreShare =
            d.m.kernelTime > 0 ? double(d.m.tensorCoreTime) / double(d.m.kernelTime) : 0.0;
        d.m.smEfficiency = smEfficiency(d.sm, window);
        if (d.occupancyTime > 0) d.m.occupancyPct = d.occupancySum / double(d.occupancyTime);
        out.kernelTime = addSaturating(out.kernelTime, d.m.kernelTime);
        out.tensorCoreTime = addSaturating(out.tensorCoreTime, d.m.tensorCoreTime);
        out.byDevice.push_back(d.m);
    }
    out.tensorCoreShare =
        out.kernelTime > 0 ? double(out.tensorCoreTime) / double(out.kernelTime) : 0.0;
    return out;
}

TimeRange kernelMetricsWindow(const Trace& trace, const GpuOpList& list,
                              const std::string& stepPrefix) {
    return kernelMetricsWindow(list, [&] { return tensorBoardSteps(trace, stepPrefix).span(); });
}

TimeRange kernelMetricsWindow(const GpuOpList& list, const std::function<TimeRange()>& stepSpan) {
    bool anyKernel = false;
    TimeNs first = std::numeric_limits<TimeNs>::max(), last = std::numeric_limits<TimeNs>::min();
    for (const GpuOp& op : list.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        anyKernel = true;
        first = std::min(first, op.start);
        last = std::max(last, op.end);
    }
    if (!anyKernel) return TimeRange{0, 0}; // nothing to average: spare the steps' pass
    const TimeRange steps = stepSpan();
    TimeRange w{std::max(steps.start, list.range.start), std::min(steps.end, list.range.end)};
    if (!steps.empty() && !w.empty()) return w;
    // No step (or none in the range): the range, or the kernels' extent where it is unbounded.
    return TimeRange{std::max(first, list.range.start), std::min(last, list.range.end)};
}

} // namespace strata
