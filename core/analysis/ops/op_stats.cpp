#include "analysis/ops/op_stats.h"

#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/launch_sites.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>

namespace strata {

bool isCpuOpKind(SliceKind k) {
    return k == SliceKind::CpuOp || k == SliceKind::UserAnnotation;
}

bool isPageableCopy(const GpuActivity* g) {
    return g && (g->srcMemory == 1 || g->dstMemory == 1);
}

namespace {

std::string configText(const GpuActivity& g) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "grid [%d,%d,%d] block [%d,%d,%d]", g.grid[0], g.grid[1],
                  g.grid[2], g.block[0], g.block[1], g.block[2]);
    return buf;
}

// The innermost CPU op or annotation enclosing `r` on its track (r excluded), or invalid.
SliceRef launchingOp(const Trace& t, SliceRef r) {
    const SliceColumns& c = t.track(r.track).slices;
    for (SliceIndex p = c.parent[r.index]; p != kNoSlice; p = c.parent[p])
        if (isCpuOpKind(c.kind[p])) return {r.track, p};
    return {};
}

struct KernelAcc {
    StringId name = 0;
    uint32_t by = 0; // the launching op's name, or the call site + 1; 0: none
    bool grouped = false;
    KernelCategory category = KernelCategory::Other;
    std::vector<TimeNs> durations;
    // Distinct (grid, block) and their launches, sorted: a flat list (at most 64), as most
    // kernels have one or a few; no tree per kernel for a trace of a million kernel names.
    std::vector<std::pair<std::array<int32_t, 6>, uint32_t>> configs;
    const GpuActivity* lastConfig = nullptr; // skips the lookup for repeated launches
    uint64_t launched = 0;
    double latencySum = 0, callSum = 0;
};

// The GPU side of the statistics, op by op: kernels by (name, launching op), time by category,
// copies by kind and memory.
class GpuTally {
public:
    GpuTally(const Trace& t, const OpStatsOptions& o)
        : t_(t), o_(o), categoryOf_(t.strings().size(), KernelCategory::Other),
          categoryKnown_(t.strings().size(), 0) {}

    void add(const GpuOp& op) {
        const StringId name = t_.track(op.ref.track).slices.name[op.ref.index];
        const KernelCategory cat = categoryOf(op, name);
        CategoryRow& cr = categories_[size_t(cat)];
        ++cr.count;
        cr.time += op.duration();
        allOpTime_ += op.duration();
        const GpuActivity* g = t_.gpu(op.ref);
        if (op.kind == SliceKind::Memcpy) addCopy(op, g);
        if (op.kind == SliceKind::Kernel) addKernel(op, name, cat, g);
    }

    // Rows sorted by time (kernels: then by name and launching op).
    void finish(OpStats& out) {
        out.kernelTime = kernelTime_;
        out.kernels.reserve(kernels_.size());
        for (KernelAcc& a : kernels_) out.kernels.push_back(kernelRow(a));
        std::sort(out.kernels.begin(), out.kernels.end(),
                  [](const KernelRow& a, const KernelRow& b) {
                      if (a.time.total != b.time.total) return a.time.total > b.time.total;
                      return std::tie(a.name, a.launchedBy) < std::tie(b.name, b.launchedBy);
                  });
        for (int c = 0; c < kKernelCategoryCount; ++c) {
            CategoryRow r = categories_[size_t(c)];
            r.category = KernelCategory(c);
            r.share = allOpTime_ > 0 ? double(r.time) / double(allOpTime_) : 0;
            out.categories.push_back(r);
        }
        std::stable_sort(
            out.categories.begin(), out.categories.end(),
            [](const CategoryRow& a, const CategoryRow& b) { return a.time > b.time; });
        for (auto& [key, c] : copies_) {
            c.gbPerSecond = c.time > 0 ? double(c.bytes) / double(c.time) : 0; // bytes/ns = GB/s
            out.copies.push_back(c);
        }
        std::sort(out.copies.begin(), out.copies.end(),
                  [](const CopyRow& a, const CopyRow& b) { return a.time > b.time; });
    }

private:
    KernelCategory categoryOf(const GpuOp& op, StringId name) {
        if (op.kind == SliceKind::Memcpy) return KernelCategory::Memcpy;
        if (op.kind != SliceKind::Kernel) return KernelCategory::Memset;
        if (!categoryKnown_[name]) {
            categoryOf_[name] = kernelCategory(op.kind, t_.str(name));
            categoryKnown_[name] = 1;
        }
        return categoryOf_[name];
    }

    void addCopy(const GpuOp& op, const GpuActivity* g) {
        const bool pageable = isPageableCopy(g);
        CopyRow& c = copies_[{g ? g->copyKind : uint8_t(0), pageable}];
        c.copyKind = g ? g->copyKind : 0;
        c.pageable = pageable;
        ++c.count;
        c.bytes += g && g->bytes > 0 ? uint64_t(g->bytes) : 0;
        c.time += op.duration();
    }

    void addKernel(const GpuOp& op, StringId name, KernelCategory cat, const GpuActivity* g) {
        kernelTime_ += op.duration();
        const SliceRef launch = t_.launchOf(op.ref);
        uint32_t by = 0;
        if (o_.callSites) {
            const uint32_t site = o_.callSites->siteOf(launch);
            by = site == LaunchSites::kNone ? 0 : site + 1;
        } else if (o_.groupByLaunchingOp && launch.valid())
            if (const SliceRef p = launchingOp(t_, launch); p.valid())
                by = t_.track(p.track).slices.name[p.index];
        const uint64_t key = uint64_t(name) << 32 | by;
        auto [it, fresh] = kernelIndex_.try_emplace(key, kernels_.size());
        if (fresh) {
            KernelAcc a;
            a.name = name;
            a.by = by;
            a.grouped = o_.groupByLaunchingOp || o_.callSites;
            a.category = cat;
            kernels_.push_back(std::move(a));
        }
        KernelAcc& k = kernels_[it->second];
        k.durations.push_back(op.duration());
        if (g && g != k.lastConfig && k.configs.size() < 64) {
            const std::array<int32_t, 6> c{g->grid[0],  g->grid[1],  g->grid[2],
                                           g->block[0], g->block[1], g->block[2]};
            auto at = std::lower_bound(k.configs.begin(), k.configs.end(), c,
                                       [](const auto& x, const auto& v) { return x.first < v; });
            if (at == k.configs.end() || at->first != c) at = k.configs.insert(at, {c, 0});
            ++at->second;
            k.lastConfig = g; // equal activities are often shared (model/trace.h)
        }
        if (launch.valid()) {
            ++k.launched;
            k.latencySum += double(op.start - t_.start(launch));
            k.callSum += double(t_.duration(launch));
        }
    }

    KernelRow kernelRow(KernelAcc& a) const { // sorts a.durations
        KernelRow r;
        r.nameId = a.name;
        r.name = std::string(t_.str(a.name));
        r.launchedBy = !a.by          ? std::string()
                       : o_.callSites ? o_.callSites->text(a.by - 1)
                                      : std::string(t_.str(a.by));
        r.category = a.category;
        r.time = summarizeDurations(a.durations);
        r.share = kernelTime_ > 0 ? double(r.time.total) / double(kernelTime_) : 0;
        r.configCount = uint32_t(a.configs.size());
        for (const auto& [c, n] : a.configs) {
            if (r.configs.size() >= 8) break;
            GpuActivity g;
            g.grid = {c[0], c[1], c[2]};
            g.block = {c[3], c[4], c[5]};
            r.configs.push_back(configText(g));
        }
        r.launched = a.launched;
        if (a.launched) {
            r.launchLatencyMean = a.latencySum / double(a.launched);
            r.launchCallMean = a.callSum / double(a.launched);
        }
        return r;
    }

    const Trace& t_;
    const OpStatsOptions& o_;
    std::unordered_map<uint64_t, size_t> kernelIndex_;
    std::vector<KernelAcc> kernels_;
    std::array<CategoryRow, kKernelCategoryCount> categories_{};
    std::vector<KernelCategory> categoryOf_;
    std::vector<uint8_t> categoryKnown_;
    std::map<std::pair<uint8_t, bool>, CopyRow> copies_;
    TimeNs allOpTime_ = 0, kernelTime_ = 0;
};

// CPU ops and annotations that start in the range (counted whole), by name: count, total, self.
// rowOf[name] becomes the row of each name seen.
void addCpuOps(const Trace& t, const OpStatsOptions& o, std::vector<int32_t>& rowOf, OpStats& out) {
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        const SliceIndex first = SliceIndex(
            std::lower_bound(c.start.begin(), c.start.end(), o.range.start) - c.start.begin());
        const SliceIndex last = SliceIndex(
            std::lower_bound(c.start.begin(), c.start.end(), o.range.end) - c.start.begin());
        const std::vector<TimeNs> self = c.selfTimes(first, last);
        for (SliceIndex i = first; i < last; ++i) {
            if (!isCpuOpKind(c.kind[i])) continue;
            int32_t& row = rowOf[c.name[i]];
            if (row < 0) {
                row = int32_t(out.cpuOps.size());
                CpuOpRow r;
                r.name = std::string(t.str(c.name[i]));
                r.kind = c.kind[i];
                out.cpuOps.push_back(std::move(r));
            }
            CpuOpRow& r = out.cpuOps[size_t(row)];
            ++r.count;
            r.total += c.dur[i];
            r.self += self[i - first];
        }
    }
}

// The GPU time launched inside each CPU op row (once per name along a launch's ancestors).
void addGpuTimeUnderOps(const Trace& t, const GpuOpList& ops, const std::vector<int32_t>& rowOf,
                        OpStats& out) {
    std::vector<StringId> seen;
    for (const GpuOp& op : ops.ops) {
        const SliceRef launch = t.launchOf(op.ref);
        if (!launch.valid()) continue;
        const SliceColumns& c = t.track(launch.track).slices;
        seen.clear();
        for (SliceIndex p = c.parent[launch.index]; p != kNoSlice; p = c.parent[p]) {
            if (!isCpuOpKind(c.kind[p]) || rowOf[c.name[p]] < 0) continue;
            if (std::find(seen.begin(), seen.end(), c.name[p]) != seen.end()) continue;
            seen.push_back(c.name[p]);
            CpuOpRow& r = out.cpuOps[size_t(rowOf[c.name[p]])];
            ++r.gpuOps;
            r.gpuTime += op.duration();
        }
    }
}

} // namespace

OpStats computeOpStats(const Trace& t, const OpStatsOptions& o) {
    return computeOpStats(t, collectGpuOps(t, o.range), o);
}

OpStats computeOpStats(const Trace& t, const GpuOpList& ops, const OpStatsOptions& o) {
    OpStats out;
    out.range = o.range;
    PhaseTimer phases;
    GpuTally gpu(t, o);
    for (const GpuOp& op : ops.ops) gpu.add(op);
    gpu.finish(out);
    phases.mark("stats: kernels");
    std::vector<int32_t> rowOf(t.strings().size(), -1);
    addCpuOps(t, o, rowOf, out);
    phases.mark("stats: cpu ops");
    addGpuTimeUnderOps(t, ops, rowOf, out);
    phases.mark("stats: gpu under ops");
    std::sort(out.cpuOps.begin(), out.cpuOps.end(), [](const CpuOpRow& a, const CpuOpRow& b) {
        if (a.gpuTime != b.gpuTime) return a.gpuTime > b.gpuTime;
        if (a.total != b.total) return a.total > b.total;
        return a.name < b.name;
    });
    return out;
}

} // namespace strata
