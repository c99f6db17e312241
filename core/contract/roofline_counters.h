#pragma once
// The counters the roofline reads (core/analysis/ops/roofline.h) under the names `strata-cli
// record --kernel-metrics` measures them (its default set, kernel_metrics/kernel_metric_set.cpp)
// and Nsight Compute names them: one definition for the collector that writes them and the
// analysis that reads them back. Precisions in FlopPrecision's order: FP64, FP32, FP16.
#include <array>
#include <string_view>

namespace strata::roofline_counters {

inline constexpr std::string_view kDramRead = "dram__bytes_read.sum";
inline constexpr std::string_view kDramWrite = "dram__bytes_write.sum";
inline constexpr std::string_view kDuration = "gpu__time_duration.sum"; // ns
// The ceilings: peak bytes per DRAM cycle and FMAs per SM cycle, and the clocks.
inline constexpr std::string_view kDramPeak = "dram__bytes.sum.peak_sustained";
inline constexpr std::string_view kDramClock = "dram__cycles_elapsed.avg.per_second";
inline constexpr std::string_view kSmClock = "sm__cycles_elapsed.avg.per_second";

// Thread instructions per precision: FMA, ADD, MUL.
inline constexpr std::array<std::array<std::string_view, 3>, 3> kInstructions = {{
    {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_dmul_pred_on.sum"},
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_fmul_pred_on.sum"},
    {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
     "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
     "sm__sass_thread_inst_executed_op_hmul_pred_on.sum"},
}};
// The peak FMAs per SM cycle, per precision.
inline constexpr std::array<std::string_view, 3> kFmaPeaks = {
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained",
};

} // namespace strata::roofline_counters
