#include "analysis/trace_analysis.h"

namespace strata {

TraceAnalysis::TraceAnalysis(std::shared_ptr<const Trace> trace, AnalysisSettings settings,
                             TimeRange range)
    : trace_(std::move(trace)), settings_(std::move(settings)), range_(range) {}

const GpuOpList& TraceAnalysis::gpuOps() const {
    return ops_.get([&] { return collectGpuOps(*trace_, range_); });
}

const GapCauses& TraceAnalysis::gapCauses() const {
    return causes_.get([&] {
        return explainGpuGaps(*trace_, gpuOps(), settings_.gapThreshold, settings_.stepPrefix);
    });
}

const GpuTimeBreakdown& TraceAnalysis::gpuTimeBreakdown() const {
    return breakdown_.get([&] {
        return strata::gpuTimeBreakdown(*trace_, gpuOps(), BreakdownOps::All, settings_.stepPrefix);
    });
}

const IdleBreakdown& TraceAnalysis::idleBreakdown() const {
    return idle_.get([&] { return strata::idleBreakdown(*trace_, gpuOps()); });
}

const TensorBoardSteps& TraceAnalysis::tensorBoardSteps() const {
    return tensorBoardSteps_.get(
        [&] { return strata::tensorBoardSteps(*trace_, settings_.stepPrefix); });
}

const StepRoles& TraceAnalysis::stepRoles() const {
    return stepRoles_.get(
        [&] { return strata::stepRoles(*trace_, tensorBoardSteps(), settings_.stepPrefix); });
}

const OpStats& TraceAnalysis::opStats(bool groupByLaunchingOp) const {
    return opStats_[groupByLaunchingOp ? 1 : 0].get([&] {
        OpStatsOptions o;
        o.range = range_;
        o.groupByLaunchingOp = groupByLaunchingOp;
        return computeOpStats(*trace_, gpuOps(), o);
    });
}

const GpuAnnotations& TraceAnalysis::gpuAnnotations() const {
    return gpuAnnotations_.get([&] { return attributeGpuAnnotations(*trace_, gpuOps()); });
}

const KernelMetrics& TraceAnalysis::kernelMetrics() const {
    return kernelMetrics_.get([&] {
        const TimeRange window =
            kernelMetricsWindow(gpuOps(), [&] { return tensorBoardSteps().span(); });
        return computeKernelMetrics(*trace_, gpuOps(), window);
    });
}

const std::vector<KernelMetricMeans>& TraceAnalysis::gpuMetricMeans() const {
    return gpuMetricMeans_.get([&] { return kernelMetricMeans(*trace_, gpuOps()); });
}

const Roofline& TraceAnalysis::roofline() const {
    return roofline_.get([&] { return computeRoofline(*trace_, gpuOps()); });
}

const LaunchSites& TraceAnalysis::launchSites() const {
    return launchSites_.get([&] { return findLaunchSites(*trace_); });
}

const OpStats& TraceAnalysis::opStatsByCallSite() const {
    return opStatsBySite_.get([&] {
        OpStatsOptions o;
        o.range = range_;
        o.callSites = &launchSites();
        return computeOpStats(*trace_, gpuOps(), o);
    });
}

const Advice& TraceAnalysis::advice() const {
    return advice_.get([&] { return adviseTrace(*trace_, gpuOps(), gapCauses()); });
}

const TraceSummary& TraceAnalysis::summary() const {
    return summary_.get([&] {
        SummaryOptions o;
        o.gapThreshold = settings_.gapThreshold;
        o.range = range_;
        o.memory = &memory();
        return summarizeTrace(*trace_, gpuOps(), o);
    });
}

const CallTree& TraceAnalysis::callTree(TrackId thread, bool bottomUp, bool withGpuTime) const {
    ComputedOnce<CallTree>* tree;
    {
        const std::lock_guard<std::mutex> lock(treesMutex_);
        auto& slot = trees_[{thread, bottomUp, withGpuTime}];
        if (!slot) slot = std::make_unique<ComputedOnce<CallTree>>();
        tree = slot.get();
    }
    return tree->get([&] {
        CallTreeOptions o;
        o.range = range_;
        o.thread = thread;
        o.bottomUp = bottomUp;
        o.withGpuTime = withGpuTime;
        return buildCallTree(*trace_, o);
    });
}

SampleSelection TraceAnalysis::sampleSelection(TrackId thread, bool native) const {
    SampleSelection s;
    s.range = range_;
    if (native) s.kind = uint8_t(StackKind::Native);
    const size_t tracks = trace_->tracks().size();
    const auto& sampled = trace_->stackSamples().threads;
    if (thread != UINT32_MAX && thread < tracks) {
        s.pid = trace_->track(thread).pid;
        s.tid = trace_->track(thread).tid;
    } else if (thread != UINT32_MAX && thread - tracks < sampled.size()) {
        s.pid = sampled[thread - tracks].pid;
        s.tid = sampled[thread - tracks].tid;
    }
    return s;
}

const CallTree& TraceAnalysis::sampleCallTree(TrackId thread, bool bottomUp, bool native) const {
    ComputedOnce<CallTree>* tree;
    {
        const std::lock_guard<std::mutex> lock(treesMutex_);
        auto& slot = sampleTrees_[{thread, bottomUp, native}];
        if (!slot) slot = std::make_unique<ComputedOnce<CallTree>>();
        tree = slot.get();
    }
    return tree->get([&] {
        SampleTreeOptions o;
        o.selection = sampleSelection(thread, native);
        o.bottomUp = bottomUp;
        return buildSampleCallTree(*trace_, o);
    });
}

const SampleProfile& TraceAnalysis::sampleProfile(TrackId thread, bool native) const {
    ComputedOnce<SampleProfile>* profile;
    {
        const std::lock_guard<std::mutex> lock(treesMutex_);
        auto& slot = sampleProfiles_[{thread, native}];
        if (!slot) slot = std::make_unique<ComputedOnce<SampleProfile>>();
        profile = slot.get();
    }
    return profile->get(
        [&] { return strata::sampleProfile(*trace_, sampleSelection(thread, native)); });
}

const RangeAggregation& TraceAnalysis::rangeAggregation() const {
    return rangeAggregation_.get([&] { return aggregateRange(*trace_, range_); });
}

const MemoryUsage& TraceAnalysis::memory() const {
    return memory_.get([&] { return memoryUsage(*trace_); });
}

} // namespace strata
