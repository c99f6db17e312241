#pragma once
// The roofline of the kernels measured with per-kernel counters (issue 51: `strata-cli record
// --kernel-metrics`, CUPTI's range profiler), under Nsight Compute's rule. A kernel launch
// carries each counter as a numeric arg named after the metric. Per launch:
//   FLOPs      per precision, 2 x FMA + ADD + MUL thread instructions:
//              sm__sass_thread_inst_executed_op_{d,f,h}{fma,add,mul}_pred_on.sum
//   bytes      DRAM traffic: dram__bytes_read.sum + dram__bytes_write.sum
//   time       gpu__time_duration.sum (ns) where measured, else the launch's duration
//   intensity  FLOPs / bytes (arithmetic intensity, FLOP per DRAM byte)
//   achieved   FLOPs / time (FLOP/s)
// The ceilings of a device, from the same counters (the peak a launch's counters report; the
// largest over its launches):
//   memory     dram__bytes.sum.peak_sustained x dram__cycles_elapsed.avg.per_second (B/s)
//   compute    2 x sm__sass_thread_inst_executed_op_{d,f,h}fma_pred_on.sum.peak_sustained
//              x sm__cycles_elapsed.avg.per_second (FLOP/s), per precision
// A launch counts when it carries both DRAM byte counts and at least one FLOP count; one that
// carries some kernel metric but not those is counted as incomplete. Per kernel name and device,
// the sums over its launches; its precision is the one with most FLOPs; attainable =
// min(compute ceiling, intensity x memory ceiling); memory-bound when its intensity is below the
// ridge point (compute ceiling / memory ceiling), compute-bound at or above it. One
// implementation for the Roofline dock and `strata-cli roofline`.
#include "model/trace.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace strata {

struct GpuOpList;

enum class FlopPrecision : uint8_t { Fp64 = 0, Fp32 = 1, Fp16 = 2 };
inline constexpr size_t kFlopPrecisions = 3;
std::string_view flopPrecisionName(FlopPrecision p); // "FP64", "FP32", "FP16"

struct RooflineLaunch {
    SliceRef kernel;
    int32_t device = -1;
    std::array<double, kFlopPrecisions> flops{}; // by FlopPrecision
    double bytes = 0;
    double seconds = 0;
    double totalFlops() const { return flops[0] + flops[1] + flops[2]; }
};

struct RooflineCeilings {
    int32_t device = -1;
    std::optional<double> bytesPerSecond;
    std::array<std::optional<double>, kFlopPrecisions> flopsPerSecond{};
};

enum class RooflineBound : uint8_t { Unknown, Memory, Compute };

struct RooflineKernel {
    StringId nameId = 0;
    int32_t device = -1;
    uint64_t launches = 0;
    std::array<double, kFlopPrecisions> flops{};
    double bytes = 0, seconds = 0;
    FlopPrecision precision = FlopPrecision::Fp32; // the one with most FLOPs
    double totalFlops() const { return flops[0] + flops[1] + flops[2]; }
    std::optional<double> intensity() const;      // none without DRAM bytes
    std::optional<double> achieved() const;       // FLOP/s; none without time
    std::optional<double> attainable;             // FLOP/s at its intensity, under the roofs
    std::optional<double> roofShare() const;      // achieved / attainable
    RooflineBound bound = RooflineBound::Unknown; // Unknown: a ceiling or the intensity missing
};

struct Roofline {
    std::vector<RooflineLaunch> launches;  // in the order of the ops
    std::vector<RooflineKernel> kernels;   // by total time descending
    std::vector<RooflineCeilings> devices; // by device, those with a launch
    uint64_t incomplete = 0;               // launches with kernel metrics but no roofline inputs
    const RooflineCeilings* ceilings(int32_t device) const;
};

// Whether some slice may carry a roofline counter: one of their names is in the trace's strings
// (cheap; what decides whether the Roofline dock opens with a trace).
bool mayHaveKernelCounters(const Trace& trace);

// Over the kernels of `ops` (collectGpuOps).
Roofline computeRoofline(const Trace& trace, const GpuOpList& ops);

} // namespace strata
