#include "analysis/advisor.h"

#include "analysis/analysis_settings.h"
#include "analysis/gap_causes.h"
#include "analysis/gpu_ops.h"
#include "analysis/op_stats.h"
#include "model/cupti_names.h"
#include "model/time_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace strata {

namespace {

std::string pct(double share) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %%", 100.0 * share);
    return b;
}

// Measured times in 4 significant digits ("459.1 ms of 1.172 s"; the evidence has them exact),
// settings (the gap threshold) as they were given.
std::string dur(TimeNs ns) {
    return formatDuration(ns);
}
std::string setting(TimeNs ns) {
    return formatPreciseDuration(ns);
}

void idleRule(const GapCauses& g, Advice& a) {
    for (const DeviceGapStats& d : g.devices) {
        const TimeNs span = d.lastEnd - d.firstStart;
        if (span <= 0) continue;
        const double share = double(d.idle) / double(span);
        std::array<CauseTotals, kGapCauseCount> by{};
        std::vector<const ExplainedGap*> longest;
        for (const ExplainedGap& e : g.deviceGaps) {
            if (e.gap.device != d.device) continue;
            by[size_t(e.cause)].count++;
            by[size_t(e.cause)].idle += e.gap.duration();
            longest.push_back(&e);
        }
        size_t main = 0;
        for (size_t c = 1; c < by.size(); ++c)
            if (by[c].idle > by[main].idle) main = c;
        Finding f;
        f.rule = "idle";
        f.severity = share >= 0.10 ? FindingSeverity::Warning : FindingSeverity::Info;
        f.title = "GPU " + std::to_string(d.device) + " was idle " + pct(share) + " of its span (" +
                  dur(d.idle) + " of " + dur(span) + ")";
        if (by[main].idle > 0)
            f.detail = "Most of the idle time in gaps over " + setting(g.threshold) + " is " +
                       gapCauseName(GapCause(main)) + ": " + std::to_string(by[main].count) +
                       " gaps, " + dur(by[main].idle) + ". See strata-cli gaps for each gap.";
        else
            f.detail = "No gap is longer than " + setting(g.threshold) +
                       ": the idle time is spread "
                       "over many short gaps (launch overhead between kernels).";
        f.evidence = {{"idle_share", share},
                      {"idle_us", double(d.idle) / 1e3},
                      {"span_us", double(span) / 1e3}};
        for (int c = 0; c < kGapCauseCount; ++c)
            f.evidence.push_back(
                {std::string(gapCauseName(GapCause(c))) + "_us", double(by[size_t(c)].idle) / 1e3});
        std::sort(longest.begin(), longest.end(), [](const ExplainedGap* x, const ExplainedGap* y) {
            return x->gap.duration() > y->gap.duration();
        });
        for (size_t i = 0; i < longest.size() && i < 3; ++i)
            f.where.push_back({longest[i]->gap.start, longest[i]->gap.end});
        a.findings.push_back(std::move(f));
    }
}

// Runs of short kernels (each under 50 µs, at most 1 ms apart) on a device, 16 or more long;
// the launch-bound part of the gaps inside a run is what a CUDA graph replay would save.
void graphsRule(const Trace& t, const GpuOpList& ops, Advice& a) {
    constexpr TimeNs kShort = 50'000, kApart = 1'000'000;
    constexpr size_t kMinRun = 16;
    struct Run {
        int32_t device;
        TimeNs start, end, saved = 0;
        size_t kernels = 0;
    };
    std::vector<Run> runs;
    std::vector<const GpuOp*> byStart;
    for (const GpuOp& o : ops.ops)
        if (o.kind == SliceKind::Kernel) byStart.push_back(&o);
    std::sort(byStart.begin(), byStart.end(), [](const GpuOp* x, const GpuOp* y) {
        return x->device != y->device ? x->device < y->device : x->start < y->start;
    });
    Run cur{};
    TimeNs prevEnd = 0;
    auto close = [&] {
        if (cur.kernels >= kMinRun && cur.saved > 0) runs.push_back(cur);
        cur = Run{};
    };
    for (const GpuOp* o : byStart) {
        const bool joins = cur.kernels > 0 && o->device == cur.device && o->duration() < kShort &&
                           o->start - prevEnd <= kApart;
        if (!joins) {
            close();
            if (o->duration() >= kShort) continue;
            cur = Run{o->device, o->start, o->end, 0, 1};
            prevEnd = o->end;
            continue;
        }
        if (o->start > prevEnd) {
            const SliceRef l = t.launchOf(o->ref);
            if (l.valid() && t.start(l) > prevEnd) // the CPU launched it after the GPU ran dry
                cur.saved += std::min(o->start, t.start(l)) - prevEnd;
        }
        ++cur.kernels;
        cur.end = std::max(cur.end, o->end);
        prevEnd = std::max(prevEnd, o->end);
    }
    close();
    std::sort(runs.begin(), runs.end(),
              [](const Run& x, const Run& y) { return x.saved > y.saved; });
    TimeNs total = 0;
    for (const Run& r : runs) total += r.saved;
    if (runs.empty()) return;
    Finding f;
    f.rule = "graphs";
    f.severity = FindingSeverity::Warning;
    f.title = std::to_string(runs.size()) +
              " run(s) of short kernels separated by launch gaps: "
              "candidates for a CUDA graph or fusion (about " +
              dur(total) + " to save)";
    const Run& r = runs.front();
    f.detail = "The largest: GPU " + std::to_string(r.device) + ", " + std::to_string(r.kernels) +
               " kernels under 50 µs each over " + dur(r.end - r.start) + ", waiting " +
               dur(r.saved) +
               " on late launches. Captured as a CUDA graph (torch.cuda.graphs, "
               "cudaStreamBeginCapture) the run replays without a CPU launch per kernel; the "
               "estimate is the launch-bound gap time inside the runs.";
    f.evidence = {{"runs", double(runs.size())},
                  {"estimated_saving_us", double(total) / 1e3},
                  {"largest_run_kernels", double(r.kernels)}};
    for (size_t i = 0; i < runs.size() && i < 3; ++i)
        f.where.push_back({runs[i].start, runs[i].end});
    a.findings.push_back(std::move(f));
}

// Copies from or to pageable host memory (the copies of op_stats.h with `pageable`).
void pageableRule(const Trace& t, const GpuOpList& ops, Advice& a) {
    uint64_t n = 0, bytes = 0;
    TimeNs time = 0;
    std::vector<TimeRange> where;
    for (const GpuOp& o : ops.ops) {
        if (o.kind != SliceKind::Memcpy) continue;
        const GpuActivity* g = t.gpu(o.ref);
        if (!g || (g->srcMemory != 1 && g->dstMemory != 1)) continue;
        ++n;
        bytes += g->bytes > 0 ? uint64_t(g->bytes) : 0;
        time += o.duration();
        if (where.size() < 3) where.push_back({o.start, o.end});
    }
    if (!n) return;
    Finding f;
    f.rule = "pageable";
    f.severity = FindingSeverity::Warning;
    char size[32];
    if (bytes >= 1'000'000)
        std::snprintf(size, sizeof size, "%.1f MB", double(bytes) / 1e6);
    else
        std::snprintf(size, sizeof size, "%.1f kB", double(bytes) / 1e3);
    f.title = std::to_string(n) + " copies to or from pageable host memory (" + size + ", " +
              dur(time) + ")";
    f.detail = "Pageable copies are staged through a pinned buffer by the driver: slower, and "
               "synchronous with the host. Pin the host memory (cudaHostAlloc, "
               "tensor.pin_memory(), DataLoader(pin_memory=True)).";
    f.evidence = {{"copies", double(n)}, {"bytes", double(bytes)}, {"time_us", double(time) / 1e3}};
    f.where = where;
    a.findings.push_back(std::move(f));
}

void syncRule(const Trace& t, TimeRange range, const std::vector<TraceStep>& steps, Advice& a) {
    std::map<std::string, std::vector<TimeRange>> calls; // blocking call name -> where
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (isLaunchApiKind(c.kind[i]) && range.contains(c.start[i]) &&
                isBlockingCallName(t.str(c.name[i])))
                calls[std::string(t.str(c.name[i]))].push_back({c.start[i], c.end(i)});
    }
    for (auto& [name, where] : calls) {
        size_t stepsWith = 0;
        for (const TraceStep& s : steps)
            if (std::any_of(where.begin(), where.end(), [&](const TimeRange& w) {
                    return w.start >= s.start && w.start < s.end;
                }))
                ++stepsWith;
        const bool loop = steps.size() >= 2 ? stepsWith == steps.size() : where.size() >= 10;
        if (!loop) continue;
        TimeNs time = 0;
        for (const TimeRange& w : where) time += w.duration();
        Finding f;
        f.rule = "sync_in_loop";
        f.severity = FindingSeverity::Warning;
        f.title =
            name + " called " + std::to_string(where.size()) + " times" +
            (steps.size() >= 2 ? " (in every one of " + std::to_string(steps.size()) + " steps)"
                               : "") +
            ", " + dur(time) + " blocked";
        f.detail = "A blocking call inside the loop drains the GPU, then the CPU has to refill it: "
                   "the launch gaps after it are synchronization gaps. Move it out of the loop, "
                   "or replace it with events (cudaEventRecord / cudaStreamWaitEvent).";
        f.evidence = {{"calls", double(where.size())}, {"blocked_us", double(time) / 1e3}};
        for (size_t i = 0; i < where.size() && i < 3; ++i) f.where.push_back(where[i]);
        a.findings.push_back(std::move(f));
    }
}

void occupancyRule(const Trace& t, const GpuOpList& ops, Advice& a) {
    struct Seen {
        TimeNs time = 0;
        const GpuOp* op = nullptr;
    };
    std::map<std::tuple<StringId, int, int, int>, Seen> kernels; // name, threads, regs, shared
    for (const GpuOp& o : ops.ops) {
        if (o.kind != SliceKind::Kernel) continue;
        const GpuActivity* g = t.gpu(o.ref);
        if (!g) continue;
        const int threads = g->block[0] * std::max(1, g->block[1]) * std::max(1, g->block[2]);
        Seen& s = kernels[{t.track(o.ref.track).slices.name[o.ref.index], threads,
                           g->registersPerThread, g->staticSharedBytes + g->dynamicSharedBytes}];
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
    std::vector<std::pair<double, Finding>> low;
    for (const auto& [key, s] : kernels) {
        const auto& [name, threads, regs, shared] = key;
        if (regs <= 0 || threads <= 0) {
            ++noRegisters;
            continue;
        }
        std::string limiter;
        const double occ = theoreticalOccupancy(lim, threads, regs, shared, &limiter);
        if (occ >= 0.25) continue;
        Finding f;
        f.rule = "occupancy";
        f.severity = FindingSeverity::Warning;
        // The kernel by its short name (Trace::displayName), not its first 100 bytes ("void
        // pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, ").
        f.title = "Low theoretical occupancy " + pct(occ) + ": " + std::string(t.displayName(name));
        f.detail = std::to_string(threads) + " threads per block, " + std::to_string(regs) +
                   " registers per thread, " + std::to_string(shared) +
                   " bytes of shared memory per block on " + lim.source + ": limited by " +
                   limiter + "; " + dur(s.time) +
                   " of kernel time. GEMM and attention kernels often "
                   "trade occupancy for registers and shared memory on purpose: check the "
                   "kernel's achieved throughput before changing its launch.";
        f.evidence = {{"occupancy", occ},
                      {"threads_per_block", double(threads)},
                      {"registers_per_thread", double(regs)},
                      {"shared_bytes", double(shared)},
                      {"kernel_time_us", double(s.time) / 1e3}};
        f.where.push_back({s.op->start, s.op->end});
        low.push_back({double(s.time), std::move(f)});
    }
    std::sort(low.begin(), low.end(),
              [](const auto& x, const auto& y) { return x.first > y.first; });
    for (size_t i = 0; i < low.size() && i < 5; ++i) a.findings.push_back(std::move(low[i].second));
    if (noRegisters == kernels.size()) {
        Finding f;
        f.rule = "occupancy";
        f.severity = FindingSeverity::NotApplicable;
        f.title = "Occupancy not computed: the kernels carry no register counts";
        f.detail = "The trace records no registers per thread for its kernels.";
        a.findings.push_back(std::move(f));
    }
}

} // namespace

const char* findingSeverityName(FindingSeverity s) {
    switch (s) {
    case FindingSeverity::Info:
        return "info";
    case FindingSeverity::Warning:
        return "warning";
    case FindingSeverity::NotApplicable:
        return "not_applicable";
    }
    return "info";
}

// A device property as an int: absent, not a number or out of range gives `fallback` (a trace's
// deviceProperties are the file's: json::value() would throw on a string, and a cast of 1e300
// is undefined).
static int intProperty(const nlohmann::json& p, const char* key, int fallback) {
    const auto it = p.find(key);
    if (it == p.end() || !it->is_number()) return fallback;
    const double d = it->get<double>();
    return d >= -2147483648.0 && d <= 2147483647.0 ? int(d) : fallback;
}

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

Advice adviseTrace(const Trace& t, TimeRange range) {
    const GpuOpList ops = collectGpuOps(t, range);
    return adviseTrace(t, ops, explainGpuGaps(t, ops, AnalysisSettings::kDefaultGapThreshold));
}

Advice adviseTrace(const Trace& t, const GpuOpList& ops, const GapCauses& g) {
    Advice a;
    const TimeRange range = ops.range;
    a.warnings = g.warnings;
    idleRule(g, a);
    graphsRule(t, ops, a);
    pageableRule(t, ops, a);
    syncRule(t, range, findSteps(t, g.stepPrefix), a);
    occupancyRule(t, ops, a);
    std::stable_sort(a.findings.begin(), a.findings.end(), [](const Finding& x, const Finding& y) {
        auto rank = [](FindingSeverity s) {
            return s == FindingSeverity::Warning ? 0 : s == FindingSeverity::Info ? 1 : 2;
        };
        return rank(x.severity) < rank(y.severity);
    });
    return a;
}

} // namespace strata
