#include "analysis/compare/diff_kernel_configs.h"

#include "analysis/ops/gpu_ops.h"

#include <algorithm>
#include <array>
#include <vector>

namespace strata::diff_configs {

std::string launchConfig(const GpuActivity* g) {
    if (!g || (!g->grid[0] && !g->block[0])) return {};
    auto dim = [](const std::array<int32_t, 3>& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    return "grid " + dim(g->grid) + ", block " + dim(g->block);
}

namespace {

using Config = std::array<int32_t, 6>; // grid, block
using KernelConfig = std::pair<StringId, Config>;

// Every distinct (kernel name, configuration) of a side, sorted: a flat list, compacted as it
// grows (to twice its distinct pairs at most), so that neither many launches nor many names
// cost a container each.
std::vector<KernelConfig> kernelConfigs(const TraceAnalysis& x) {
    const Trace& t = x.trace();
    std::vector<KernelConfig> v;
    size_t compactAt = 1 << 16;
    auto compact = [&v] {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (const GpuOp& op : x.gpuOps().ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const GpuActivity* g = t.gpu(op.ref);
        Config c{};
        if (g) c = {g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2]};
        const StringId name = t.track(op.ref.track).slices.name[op.ref.index];
        if (!v.empty() && v.back().first == name && v.back().second == c) continue; // repeats
        v.push_back({name, c});
        if (v.size() >= compactAt) {
            compact();
            compactAt = std::max(compactAt, 2 * v.size());
        }
    }
    compact();
    return v;
}

} // namespace

SplitNames multiConfigKernels(const TraceAnalysis& a, const TraceAnalysis& b) {
    const std::vector<KernelConfig> ca = kernelConfigs(a), cb = kernelConfigs(b);
    const Trace& ta = a.trace();
    const StringPool& pb = b.trace().strings();
    auto sameName = [](const KernelConfig& x, const KernelConfig& y) { return x.first < y.first; };
    SplitNames out;
    for (auto i = ca.begin(); i != ca.end();) {
        const auto end = std::upper_bound(i, ca.end(), *i, sameName); // this name's configs
        const std::string_view name = ta.str(i->first);
        const StringId other = pb.find(name); // the same name in b (b's own string ids)
        if (other != StringPool::kNotFound) {
            const auto [lo, hi] =
                std::equal_range(cb.begin(), cb.end(), KernelConfig{other, Config{}}, sameName);
            const bool same = std::equal(
                i, end, lo, hi, [](const auto& x, const auto& y) { return x.second == y.second; });
            if (lo != hi && !same) out.emplace(name);
        }
        i = end;
    }
    return out;
}

std::string kernelRowName(const Trace& t, SliceRef r, const SplitNames& split) {
    std::string name(t.str(t.track(r.track).slices.name[r.index]));
    if (split.empty() || !split.count(name)) return name;
    const std::string config = launchConfig(t.gpu(r));
    return name + " [" + (config.empty() ? std::string("no launch configuration") : config) + "]";
}

} // namespace strata::diff_configs
