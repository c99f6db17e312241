#pragma once
// What Kineto's kernel args say about how well kernels fill the GPU, under the rules of the
// PyTorch profiler's TensorBoard plugin (torch_tb_profiler/profiler/kernel_parser.py,
// gpu_metrics_parser.py, tensor_core.py), over the kernels that start in a range (issue 46):
//   per kernel name  the duration-weighted mean of "blocks per SM" and of "est. achieved
//                    occupancy %", over the kernels of that name that carry the arg (a number);
//                    none when no kernel of the name does (the plugin fills a missing value with
//                    0 in its weighted mean: the same wherever every kernel of a name carries it,
//                    as Kineto writes them); 0 when those kernels all last 0 ns (the plugin's
//                    ZeroDivisionError answer); whether the name uses tensor cores;
//   per device       Est. SM efficiency = the time integral, over the window, of
//                    min(sum of "blocks per SM" of the kernels running then, 1), divided by the
//                    window's length (kernels whose value is not > 0 left out); none when no
//                    such kernel runs in the window. Est. achieved occupancy = sum of
//                    occupancy x (the kernel's time inside the window) / sum of that time, over
//                    the kernels whose occupancy is >= 0; none when that time is 0. Tensor-core
//                    share of the device's kernel time (over every kernel of the device; the
//                    plugin's per-device figure counts only the kernels PyTorch ops launched);
//   window           the span of the plugin's steps (ops/step_roles.h tensorBoardSteps:
//                    first step's start to last step's end, stretched to their device work),
//                    within the range; without one (or none in the range) the kernels'
//                    extent, first start to last end;
//   tensor cores     a kernel whose name contains one of the plugin's patterns (h884, s884, h1688,
//                    s1688, hmma, i8816, 16816, dgrad_1x1_stride_2x2, first_layer_wgrad_kernel,
//                    conv1x1, conv2d_c1_k1, direct_group, xmma_implicit_gemm, xmma_sparse_conv,
//                    xmma_warp_specialized_implicit_gemm, xmma_gemm, xmma_sparse_gemm, c1688;
//                    case-sensitive); the share = their total duration / all kernels' total.
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace strata {

struct GpuOpList;

// Whether the plugin takes a kernel of this name for one that uses tensor cores.
bool usesTensorCores(std::string_view kernelName);

struct KernelNameMetrics {
    StringId nameId = 0;
    bool tensorCores = false;
    std::optional<double> blocksPerSm;  // duration-weighted mean
    std::optional<double> occupancyPct; // duration-weighted mean, in percent
};

struct DeviceKernelMetrics {
    int32_t device = -1;
    TimeNs kernelTime = 0;     // sum of its kernels' durations
    TimeNs tensorCoreTime = 0; // of those that use tensor cores
    double tensorCoreShare = 0;
    std::optional<double> smEfficiency; // 0..1
    std::optional<double> occupancyPct;
};

struct KernelMetrics {
    TimeRange window;
    TimeNs kernelTime = 0, tensorCoreTime = 0;
    double tensorCoreShare = 0; // tensorCoreTime / kernelTime (0 without kernels)
    uint64_t withBlocksPerSm = 0, withOccupancy = 0; // kernels that carry each arg
    std::vector<KernelNameMetrics> byName;           // by name id
    std::vector<DeviceKernelMetrics> byDevice;       // by device, those with a kernel
    const KernelNameMetrics* find(StringId nameId) const;
};

// Over `ops` (collectGpuOps), the per-device figures over `window` (see above).
KernelMetrics computeKernelMetrics(const Trace& trace, const GpuOpList& ops, TimeRange window);
// The window of the header for a trace and range: the plugin's step span within `range`.
TimeRange kernelMetricsWindow(const Trace& trace, const GpuOpList& ops,
                              const std::string& stepPrefix);
// The same with the steps' span given (asked only when a kernel is there to average).
TimeRange kernelMetricsWindow(const GpuOpList& ops, const std::function<TimeRange()>& stepSpan);

} // namespace strata
