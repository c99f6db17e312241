#pragma once
// The analysis of one trace, for one set of settings (analysis_settings.h) and one range: every
// figure the views and strata-cli show, each computed once, on first use, from any thread, and
// then shared. The timeline's gap drawing, the Gaps, Statistics and Call Tree docks, the Range
// table and the CLI's summary, gaps, stats and advise all read from one of these, so a gap's
// cause is decided once per trace and settings, not once per view.
//
// "In a range" has one meaning per kind of figure, said by the view that shows it: GPU work, CPU
// ops and call trees count what STARTS in the range, whole (analysis_range.h); the Range table
// clips slices to it (range_aggregation.h).
#include "analysis/advice/advisor.h"
#include "analysis/analysis_range.h"
#include "analysis/analysis_settings.h"
#include "analysis/call_tree.h"
#include "analysis/gaps/gap_causes.h"
#include "analysis/gaps/idle_breakdown.h"
#include "analysis/memory_usage.h"
#include "analysis/ops/gpu_annotations.h"
#include "analysis/ops/gpu_metric_means.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/gpu_time_breakdown.h"
#include "analysis/ops/kernel_metrics.h"
#include "analysis/ops/launch_sites.h"
#include "analysis/ops/op_stats.h"
#include "analysis/ops/roofline.h"
#include "analysis/ops/step_roles.h"
#include "analysis/range_aggregation.h"
#include "analysis/samples/sample_call_tree.h"
#include "analysis/samples/sample_profile.h"
#include "analysis/trace_summary.h"
#include "model/trace.h"
#include "util/computed_once.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace strata {

class TraceAnalysis {
public:
    explicit TraceAnalysis(std::shared_ptr<const Trace> trace, AnalysisSettings settings = {},
                           TimeRange range = wholeTrace());
    TraceAnalysis(const TraceAnalysis&) = delete;
    TraceAnalysis& operator=(const TraceAnalysis&) = delete;

    const Trace& trace() const { return *trace_; }
    const std::shared_ptr<const Trace>& tracePtr() const { return trace_; }
    const AnalysisSettings& settings() const { return settings_; }
    TimeRange range() const { return range_; }

    // The GPU ops that start in the range (gpu_ops.h), shared by the analyses below.
    const GpuOpList& gpuOps() const;
    // Why the GPU waited: the gaps over the threshold with their causes, per step (gap_causes.h).
    const GapCauses& gapCauses() const;
    // Where each device's GPU time went with overlap accounted, per device and step, all ops
    // (gpu_time_breakdown.h).
    const GpuTimeBreakdown& gpuTimeBreakdown() const;
    // The TensorBoard plugin's steps and each one's time by role (step_roles.h), over the whole
    // trace; the steps shared with the kernel metrics' window.
    const TensorBoardSteps& tensorBoardSteps() const;
    const StepRoles& stepRoles() const;
    // Each stream's idle time as HTA splits it (idle_breakdown.h), HTA's default delay.
    const IdleBreakdown& idleBreakdown() const;
    // Kernel, category, CPU op and copy tables (op_stats.h); kernels per name, or per name and
    // launching CPU op.
    const OpStats& opStats(bool groupByLaunchingOp = false) const;
    // GPU time by GPU-side user annotation (gpu_annotations.h), and the TensorBoard plugin's
    // kernel metrics: blocks per SM, achieved occupancy, SM efficiency, tensor cores
    // (kernel_metrics.h, over the plugin's step span).
    const GpuAnnotations& gpuAnnotations() const;
    const KernelMetrics& kernelMetrics() const;
    // What the GPU's metric rows said while each kernel name ran (gpu_metric_means.h): empty
    // without GPU metric rows.
    const std::vector<KernelMetricMeans>& gpuMetricMeans() const;
    // The roofline of the kernels measured with per-kernel counters (roofline.h): empty without.
    const Roofline& roofline() const;
    // The Python call site of every CUDA API call (launch_sites.h), over the whole trace.
    const LaunchSites& launchSites() const;
    // The kernel table per name and Python call site of the launch (KernelRow::launchedBy).
    const OpStats& opStatsByCallSite() const;
    // The advisor's findings (advisor.h), from the ops and gap causes above.
    const Advice& advice() const;
    // What `strata-cli summary` prints: counts, kernel statistics, every gap, launch latency.
    const TraceSummary& summary() const;
    // The CPU call tree of one thread (or all) over the range (call_tree.h; options.range is
    // this analysis's range), one per (thread, direction, GPU time).
    const CallTree& callTree(TrackId thread, bool bottomUp, bool withGpuTime) const;
    // The sampled stacks of one thread (a thread track; tracks().size() + i for the i-th
    // SampleThread, one with samples and no track; UINT32_MAX: all) at a time in the range, as a
    // call tree (analysis/samples/sample_call_tree.h: count = samples, times = samples x the
    // period), one per (thread, direction); and per function (sample_profile.h), one per thread.
    // Each thread's timeKind() samples, or with `native` its native ones alone.
    const CallTree& sampleCallTree(TrackId thread, bool bottomUp, bool native = false) const;
    const SampleProfile& sampleProfile(TrackId thread, bool native = false) const;
    // The slices overlapping the range by name, clipped to it (range_aggregation.h).
    const RangeAggregation& rangeAggregation() const;
    // Memory in use over time per device, over the whole trace (memory_usage.h).
    const MemoryUsage& memory() const;

private:
    std::shared_ptr<const Trace> trace_;
    AnalysisSettings settings_;
    TimeRange range_;
    ComputedOnce<GpuOpList> ops_;
    ComputedOnce<GapCauses> causes_;
    ComputedOnce<GpuTimeBreakdown> breakdown_;
    ComputedOnce<TensorBoardSteps> tensorBoardSteps_;
    ComputedOnce<StepRoles> stepRoles_;
    ComputedOnce<IdleBreakdown> idle_;
    ComputedOnce<OpStats> opStats_[2];
    ComputedOnce<GpuAnnotations> gpuAnnotations_;
    ComputedOnce<KernelMetrics> kernelMetrics_;
    ComputedOnce<std::vector<KernelMetricMeans>> gpuMetricMeans_;
    ComputedOnce<Roofline> roofline_;
    ComputedOnce<LaunchSites> launchSites_;
    ComputedOnce<OpStats> opStatsBySite_;
    ComputedOnce<Advice> advice_;
    ComputedOnce<TraceSummary> summary_;
    ComputedOnce<RangeAggregation> rangeAggregation_;
    ComputedOnce<MemoryUsage> memory_;
    mutable std::mutex treesMutex_;
    mutable std::map<std::tuple<TrackId, bool, bool>, std::unique_ptr<ComputedOnce<CallTree>>>
        trees_;
    mutable std::map<std::tuple<TrackId, bool, bool>, std::unique_ptr<ComputedOnce<CallTree>>>
        sampleTrees_;
    mutable std::map<std::pair<TrackId, bool>, std::unique_ptr<ComputedOnce<SampleProfile>>>
        sampleProfiles_;
    SampleSelection sampleSelection(TrackId thread, bool native) const;
};

} // namespace strata
