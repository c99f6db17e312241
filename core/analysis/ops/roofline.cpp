#include "analysis/ops/roofline.h"

#include "analysis/ops/gpu_ops.h"
#include "contract/roofline_counters.h"

#include <algorithm>
#include <map>

namespace strata {

namespace {

// The counters the roofline reads, by role.
enum Input : size_t {
    DramRead,
    DramWrite,
    Duration,
    DramPeak,
    DramClock,
    SmClock,
    FmaFirst, // fma, add, mul for FP64, FP32, FP16: FmaFirst + 3 * precision + {0, 1, 2}
    FmaPeakFirst = FmaFirst + 3 * kFlopPrecisions, // + precision
    InputCount = FmaPeakFirst + kFlopPrecisions,
};

// Their names, as the collector measures them (contract/roofline_counters.h), by role.
constexpr std::array<std::string_view, InputCount> inputNames() {
    namespace rc = roofline_counters;
    std::array<std::string_view, InputCount> n{};
    n[DramRead] = rc::kDramRead;
    n[DramWrite] = rc::kDramWrite;
    n[Duration] = rc::kDuration;
    n[DramPeak] = rc::kDramPeak;
    n[DramClock] = rc::kDramClock;
    n[SmClock] = rc::kSmClock;
    for (size_t p = 0; p < kFlopPrecisions; ++p) {
        for (size_t op = 0; op < 3; ++op) n[FmaFirst + 3 * p + op] = rc::kInstructions[p][op];
        n[FmaPeakFirst + p] = rc::kFmaPeaks[p];
    }
    return n;
}
constexpr std::array<std::string_view, InputCount> kInputNames = inputNames();

using Values = std::array<std::optional<double>, InputCount>;

// The inputs one kernel carries (its numeric args under the names above).
Values inputsOf(const Trace& t, SliceRef k, const std::array<StringId, InputCount>& keys,
                bool* anyMetric) {
    Values v;
    const ArgSetId set = t.track(k.track).slices.args[k.index];
    if (set == kNoArgs) return v;
    for (const Arg& a : t.args(set)) {
        const auto at = std::find(keys.begin(), keys.end(), a.key);
        if (at == keys.end() || !a.value.isNumber()) continue;
        v[size_t(at - keys.begin())] = a.value.toDouble();
        *anyMetric = true;
    }
    return v;
}

std::optional<RooflineLaunch> launchOf(const GpuOp& op, const Values& v) {
    bool anyFlops = false;
    RooflineLaunch l{op.ref, op.device, {}, 0, 0};
    for (size_t p = 0; p < kFlopPrecisions; ++p) {
        const size_t fma = FmaFirst + 3 * p;
        anyFlops = anyFlops || v[fma] || v[fma + 1] || v[fma + 2];
        l.flops[p] = 2 * v[fma].value_or(0) + v[fma + 1].value_or(0) + v[fma + 2].value_or(0);
    }
    if (!anyFlops || !v[DramRead] || !v[DramWrite]) return std::nullopt;
    l.bytes = *v[DramRead] + *v[DramWrite];
    l.seconds = v[Duration] ? *v[Duration] * 1e-9 : double(op.duration()) * 1e-9;
    return l;
}

void raise(std::optional<double>& ceiling, std::optional<double> value) {
    if (value && (!ceiling || *value > *ceiling)) ceiling = value;
}

void addCeilings(RooflineCeilings& c, const Values& v) {
    if (v[DramPeak] && v[DramClock]) raise(c.bytesPerSecond, *v[DramPeak] * *v[DramClock]);
    for (size_t p = 0; p < kFlopPrecisions; ++p)
        if (v[FmaPeakFirst + p] && v[SmClock])
            raise(c.flopsPerSecond[p], 2 * *v[FmaPeakFirst + p] * *v[SmClock]);
}

// Its precision, attainable FLOP/s and bound, under its device's ceilings.
void judge(RooflineKernel& k, const RooflineCeilings* c) {
    size_t most = size_t(FlopPrecision::Fp32);
    for (size_t p = 0; p < kFlopPrecisions; ++p)
        if (k.flops[p] > k.flops[most]) most = p;
    k.precision = FlopPrecision(most);
    const std::optional<double> ai = k.intensity();
    if (!c || !ai || !c->bytesPerSecond || !c->flopsPerSecond[most]) return;
    const double compute = *c->flopsPerSecond[most], memory = *c->bytesPerSecond;
    k.attainable = std::min(compute, *ai * memory);
    k.bound = *ai < compute / memory ? RooflineBound::Memory : RooflineBound::Compute;
}

} // namespace

std::string_view flopPrecisionName(FlopPrecision p) {
    switch (p) {
    case FlopPrecision::Fp64:
        return "FP64";
    case FlopPrecision::Fp32:
        return "FP32";
    case FlopPrecision::Fp16:
        return "FP16";
    }
    return "?";
}

std::optional<double> RooflineKernel::intensity() const {
    if (bytes <= 0) return std::nullopt;
    return totalFlops() / bytes;
}

std::optional<double> RooflineKernel::achieved() const {
    if (seconds <= 0) return std::nullopt;
    return totalFlops() / seconds;
}

std::optional<double> RooflineKernel::roofShare() const {
    const std::optional<double> a = achieved();
    if (!a || !attainable || *attainable <= 0) return std::nullopt;
    return *a / *attainable;
}

const RooflineCeilings* Roofline::ceilings(int32_t device) const {
    for (const RooflineCeilings& c : devices)
        if (c.device == device) return &c;
    return nullptr;
}

bool mayHaveKernelCounters(const Trace& trace) {
    for (std::string_view name : kInputNames)
        if (trace.strings().find(name) != StringPool::kNotFound) return true;
    return false;
}

Roofline computeRoofline(const Trace& trace, const GpuOpList& ops) {
    Roofline r;
    std::array<StringId, InputCount> keys{};
    bool anyKey = false;
    for (size_t i = 0; i < InputCount; ++i) {
        keys[i] = trace.strings().find(kInputNames[i]);
        anyKey = anyKey || keys[i] != StringPool::kNotFound;
    }
    if (!anyKey) return r;
    std::map<int32_t, RooflineCeilings> ceilings;
    std::map<std::pair<StringId, int32_t>, RooflineKernel> kernels;
    for (const GpuOp& op : ops.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        bool anyMetric = false;
        const Values v = inputsOf(trace, op.ref, keys, &anyMetric);
        if (!anyMetric) continue;
        RooflineCeilings& c = ceilings[op.device];
        c.device = op.device;
        addCeilings(c, v);
        const std::optional<RooflineLaunch> l = launchOf(op, v);
        if (!l) {
            ++r.incomplete;
            continue;
        }
        const StringId name = trace.track(op.ref.track).slices.name[op.ref.index];
        RooflineKernel& k = kernels[{name, op.device}];
        k.nameId = name;
        k.device = op.device;
        ++k.launches;
        for (size_t p = 0; p < kFlopPrecisions; ++p) k.flops[p] += l->flops[p];
        k.bytes += l->bytes;
        k.seconds += l->seconds;
        r.launches.push_back(*l);
    }
    for (auto& [device, c] : ceilings) r.devices.push_back(c);
    for (auto& [key, k] : kernels) {
        judge(k, r.ceilings(k.device));
        r.kernels.push_back(k);
    }
    std::stable_sort(
        r.kernels.begin(), r.kernels.end(),
        [](const RooflineKernel& a, const RooflineKernel& b) { return a.seconds > b.seconds; });
    return r;
}

} // namespace strata
