#pragma once
// `--kernel-metrics REGEX` in the collector (issue 51): the launches of the kernels whose
// demangled name the expression matches are measured with CUPTI's range profiler
// (range_session.h: kernel replay, one range per launch), each launch's values written as a
// KernelMetrics record for its correlation id, which the reader gives its kernel as args.
//
// Driven by the launch callbacks (runtime and driver, entry and exit; section_handover.cpp):
// on the entry of a launch call whose kernel matches, the launch's context is set up (once) and
// the profiler started; on the exit of the same call it is stopped and the range read. A runtime
// launch calls the driver's inside it: the outermost call is measured, under its correlation id
// (the one its kernel carries); a runtime call entered before its context exists leaves it to
// the driver's call inside it.
//
// The cost is said up front: the number of passes depends on the chip, so when the first
// matching launch's device is set up (before its replay) the collector says on stderr and in the
// metadata `kernel_metrics` the expression, the metrics, the passes, and that each matching
// launch is serialised and replayed that many times. Whatever fails (no support, no privileges,
// a metric the chip lacks, a launch CUPTI could not measure) is one warning in the trace and on
// stderr; kernels are recorded all the same.
//
// Made only when STRATA_KERNEL_METRICS is set: otherwise no launch callback is enabled for it and
// nothing of CUPTI's profiler runs. Thread-safe (one lock around CUPTI's calls).
#include "kernel_metrics/kernel_filter.h"
#include "kernel_metrics/range_session.h"

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace strata {

class StrataTraceWriter;

namespace kernel_metrics {

struct KernelMetricsSettings {
    std::string regex;                // STRATA_KERNEL_METRICS
    std::vector<std::string> metrics; // parsed STRATA_KERNEL_METRICS_SET
    std::string asked = "default";    // the set as given
};

class KernelMetrics {
public:
    using Clock = uint64_t (*)();              // the collector's (clockNs)
    using Keep = std::function<bool(int64_t)>; // a launch at this trace time is kept (schedule)

    // Null, with a warning in the trace and on stderr, when the expression is not one.
    static KernelMetrics* create(StrataTraceWriter& writer, KernelMetricsSettings settings,
                                 Clock clock, Keep keep);

    // A runtime or driver launch call's entry or exit (CUPTI's callback data).
    void onLaunch(const CUpti_CallbackData& info);
    // A context is being destroyed: its range profiler is disabled first.
    void onContextDestroying(CUcontext context);
    // The end of the recording: every range profiler disabled, the totals written. Later calls
    // do nothing.
    void finish();

private:
    struct Session {
        RangeSession range;
        uint32_t device = 0;
        std::string names; // the measured metrics joined by '\n', as the record names them
        bool busy = false; // a launch of another thread is being measured
        bool failureSaid = false;
    };
    struct Totals {
        uint64_t matched = 0, measured = 0, failed = 0, busy = 0, outside = 0, unmeasured = 0;
    };

    KernelMetrics(StrataTraceWriter& writer, KernelMetricsSettings settings, Clock clock,
                  Keep keep);
    bool begin(CUcontext context, const std::string& kernel);
    void end(const CUpti_CallbackData& info);
    Session* sessionFor(CUcontext context);
    bool openSession(Session& s, CUcontext context);
    void describe(const Session& s);
    void launchFailed(Session& s, const std::string& kernel, const std::string& error);
    void warn(const std::string& text);
    std::string regexText() const;

    StrataTraceWriter& writer_;
    KernelMetricsSettings settings_;
    Clock clock_;
    Keep keep_;
    KernelFilter filter_;
    std::mutex mutex_;
    std::map<CUcontext, std::unique_ptr<Session>> sessions_; // a failed one stays, not measuring
    std::vector<std::unique_ptr<Session>> retired_; // of destroyed contexts (a thread may hold one)
    std::set<uint32_t> devicesSaid_;                // their cost or failure already said
    bool costSaid_ = false, profilerAcquired_ = false, finished_ = false;
    Totals totals_;
};

} // namespace kernel_metrics
} // namespace strata
