#include "analysis/ops/occupancy.h"

#include "analysis/advice/advisor_rules.h"
#include "analysis/ops/kernel_category.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <tuple>

namespace strata {

namespace {

constexpr double kLowOccupancy = 0.25;
// Under this share of the kernel time a kernel's occupancy is information only.
constexpr double kSmallShare = 0.05;

// A device property as an int: absent, not a number or out of range gives `fallback` (a trace's
// deviceProperties are the file's: json::value() would throw on a string, and a cast of 1e300
// is undefined).
int intProperty(const nlohmann::json& p, const char* key, int fallback) {
    const auto it = p.find(key);
    if (it == p.end() || !it->is_number()) return fallback;
    const double d = it->get<double>();
    return d >= -2147483648.0 && d <= 2147483647.0 ? int(d) : fallback;
}

Finding lowOccupancy(const Trace& t, const SmLimits& lim,
                     const std::tuple<StringId, int, int, int>& key, double occ,
                     const std::string& limiter, TimeNs time, TimeNs kernelTime) {
    const auto& [name, threads, regs, shared] = key;
    const KernelCategory cat = kernelCategory(SliceKind::Kernel, t.str(name));
    const bool byDesign = cat == KernelCategory::Gemm || cat == KernelCategory::Attention ||
                          cat == KernelCategory::Communication;
    const double share = kernelTime > 0 ? double(time) / double(kernelTime) : 0;
    Finding f;
    f.rule = "occupancy";
    f.severity = byDesign || share < kSmallShare ? FindingSeverity::Info : FindingSeverity::Warning;
    f.saving = byDesign ? 0 : TimeNs(double(time) * (1.0 - occ / kLowOccupancy));
    // The kernel by its short name (Trace::displayName), not its first 100 bytes ("void
    // pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, ").
    f.title =
        "Low theoretical occupancy " + advice::pct(occ) + ": " + std::string(t.displayName(name));
    f.detail = std::to_string(threads) + " threads per block, " + std::to_string(regs) +
               " registers per thread, " + std::to_string(shared) +
               " bytes of shared memory per block on " + lim.source + ": limited by " + limiter +
               "; " + advice::dur(time) + " of kernel time (" + advice::pct(share) + "). ";
    if (byDesign)
        f.detail += std::string(kernelCategoryName(cat)) +
                    " kernels trade occupancy for registers and shared memory on purpose: "
                    "information, not something to change.";
    else
        f.detail += "If the kernel is latency-bound its time shrinks with the warps it lacks: "
                    "at most " +
                    advice::dur(f.saving) +
                    " to gain. Check its achieved throughput before changing its launch.";
    f.evidence = {{"occupancy", occ},
                  {"threads_per_block", double(threads)},
                  {"registers_per_thread", double(regs)},
                  {"shared_bytes", double(shared)},
                  {"share_of_kernel_time", share},
                  {"kernel_time_us", double(time) / 1e3}};
    return f;
}

} // namespace

SmLimits smLimits(const Trace& t, int32_t device) {
    SmLimits l;
    int major = 0, minor = 0;
    const auto it = t.metadata().find("deviceProperties");
    if (it != t.metadata().end()) {
        const nlohmann::json props = nlohmann::json::parse(it->second, nullptr, false);
        if (props.is_array())
            for (const auto& p : props) {
                if (!p.is_object() || intProperty(p, "id", -1) != device) continue;
                major = intProperty(p, "computeMajor", 0);
                minor = intProperty(p, "computeMinor", 0);
                l.maxThreadsPerSm = intProperty(p, "maxThreadsPerMultiprocessor", 0);
                l.regsPerSm = intProperty(p, "regsPerMultiprocessor", 0);
                l.sharedPerSm = intProperty(p, "sharedMemPerMultiprocessor", 0);
                const auto name = p.find("name");
                l.source = name != p.end() && name->is_string()
                               ? name->get<std::string>()
                               : std::string("device ") + std::to_string(device);
            }
    }
    if (major == 0)
        for (const DeviceInfo& d : t.devices())
            if (d.id == device) {
                major = d.computeMajor, minor = d.computeMinor;
                l.source = d.name;
            }
    if (major == 0) return l;
    // Per compute capability (CUDA Programming Guide, "Technical Specifications"): blocks per
    // SM, and what the properties did not say.
    const int cc = std::clamp(major, 0, 1000) * 10 + std::clamp(minor, 0, 9);
    const int blocks = cc >= 90               ? 32
                       : cc == 89             ? 24
                       : cc == 86 || cc == 87 ? 16
                       : cc >= 80             ? 32
                       : cc == 75             ? 16
                                              : 32;
    const int threads = cc == 86 || cc == 87 || cc == 89 ? 1536 : cc == 75 ? 1024 : 2048;
    const int shared = cc >= 90               ? 228 * 1024
                       : cc == 80 || cc == 87 ? 164 * 1024
                       : cc == 86 || cc == 89 ? 100 * 1024
                       : cc == 75             ? 64 * 1024
                                              : 96 * 1024;
    l.maxBlocksPerSm = blocks;
    if (!l.maxThreadsPerSm) l.maxThreadsPerSm = threads;
    if (!l.regsPerSm) l.regsPerSm = 65536;
    if (!l.sharedPerSm) l.sharedPerSm = shared;
    l.reservedSharedPerBlock = cc >= 80 ? 1024 : 0;
    l.source += " (sm_" + std::to_string(cc) + ")";
    l.known = true;
    return l;
}

double theoreticalOccupancy(const SmLimits& l, int threads, int regs, int shared,
                            std::string* limiter) {
    // In 64 bits: a trace's launch configuration and device properties are the file's.
    const int64_t maxWarps = int64_t(l.maxThreadsPerSm) / 32;
    if (!l.known || threads <= 0 || maxWarps <= 0) return 0;
    const int64_t warpsPerBlock = (int64_t(threads) + 31) / 32;
    int64_t best = l.maxBlocksPerSm;
    std::string why = "blocks per SM";
    auto limit = [&](int64_t blocks, const char* what) {
        if (blocks < best) best = blocks, why = what;
    };
    limit(maxWarps / warpsPerBlock, "warps per SM");
    if (regs > 0) {
        const int64_t regsPerWarp =
            ((int64_t(regs) * 32 + 255) / 256) * 256; // allocated per warp, 256 at a time
        limit((l.regsPerSm / regsPerWarp) / warpsPerBlock, "registers");
    }
    const int64_t smem = int64_t(shared) + l.reservedSharedPerBlock;
    if (shared > 0 && smem > 0) limit(l.sharedPerSm / smem, "shared memory");
    if (limiter) *limiter = why;
    return best <= 0 ? 0 : double(best * warpsPerBlock) / double(maxWarps);
}

namespace advice {

// Low theoretical occupancy, per kernel name and launch configuration (advisor.h).
void occupancyRule(const Context& c, Advice& a) {
    const Trace& t = c.trace;
    struct Seen {
        TimeNs time = 0;
        const GpuOp* op = nullptr;
    };
    std::map<std::tuple<StringId, int, int, int>, Seen> kernels; // name, threads, regs, shared
    TimeNs kernelTime = 0;
    for (const GpuOp& o : c.ops.ops) {
        if (o.kind != SliceKind::Kernel) continue;
        kernelTime += o.duration();
        const GpuActivity* g = t.gpu(o.ref);
        if (!g) continue;
        const int threads = g->block[0] * std::max(1, g->block[1]) * std::max(1, g->block[2]);
        // Static plus dynamic, of those known (-1 unknown: 64 KiB static and an unknown dynamic
        // part are 65536 bytes, not 65535).
        const int shared = int(std::min<int64_t>(int64_t(std::max(0, g->staticSharedBytes)) +
                                                     std::max(0, g->dynamicSharedBytes),
                                                 INT32_MAX));
        Seen& s = kernels[{t.track(o.ref.track).slices.name[o.ref.index], threads,
                           g->registersPerThread, shared}];
        s.time += o.duration();
        s.op = &o;
    }
    if (kernels.empty()) return;
    const int32_t device = kernels.begin()->second.op->device;
    const SmLimits lim = smLimits(t, device);
    if (!lim.known) {
        Finding f;
        f.rule = "occupancy";
        f.severity = FindingSeverity::NotApplicable;
        f.title = "Occupancy not computed: the trace has no device properties";
        f.detail =
            "Neither deviceProperties metadata (Kineto) nor a device record with its compute "
            "capability (Strata recordings) says how many registers, threads and shared "
            "memory an SM has.";
        a.findings.push_back(std::move(f));
        return;
    }
    uint64_t noRegisters = 0;
    std::vector<Finding> low;
    for (const auto& [key, s] : kernels) {
        const auto& [name, threads, regs, shared] = key;
        if (regs <= 0 || threads <= 0) {
            ++noRegisters;
            continue;
        }
        std::string limiter;
        const double occ = theoreticalOccupancy(lim, threads, regs, shared, &limiter);
        if (occ >= kLowOccupancy) continue;
        low.push_back(lowOccupancy(t, lim, key, occ, limiter, s.time, kernelTime));
        low.back().where.push_back({s.op->start, s.op->end});
    }
    std::sort(low.begin(), low.end(), [](const Finding& x, const Finding& y) {
        if (x.saving != y.saving) return x.saving > y.saving;
        return x.evidence.back().second > y.evidence.back().second; // kernel time
    });
    for (size_t i = 0; i < low.size() && i < 5; ++i) a.findings.push_back(std::move(low[i]));
    if (noRegisters == kernels.size()) {
        Finding f;
        f.rule = "occupancy";
        f.severity = FindingSeverity::NotApplicable;
        f.title = "Occupancy not computed: the kernels carry no register counts";
        f.detail = "The trace records no registers per thread for its kernels.";
        a.findings.push_back(std::move(f));
    }
}

} // namespace advice

} // namespace strata
