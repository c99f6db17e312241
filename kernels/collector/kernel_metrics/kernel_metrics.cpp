#include "kernel_metrics/kernel_metrics.h"

#include "contract/collector_env.h"
#include "io/strata/strata_trace_writer.h"

#include <cstdio>

namespace strata::kernel_metrics {

namespace {

// This thread's launch calls: how deep it is inside them (a runtime launch holds the driver's),
// the outermost call's correlation id, whether a call with a context was looked at (the calls
// inside it are the same launch), and the session measuring its launch (null: none).
struct LaunchState {
    int depth = 0;
    int64_t correlation = -1;
    bool looked = false;
    void* session = nullptr;
    int startedAt = 0; // the depth whose exit ends the measurement
    std::string kernel;
};
thread_local LaunchState t_launch;

std::string deviceKey(uint32_t device) {
    return std::string(collector_env::kMetaKernelMetrics) + "_device_" + std::to_string(device);
}

std::string joined(const std::vector<std::string>& items, const char* by) {
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : by) + i;
    return s;
}

// "3 passes: each matching launch is serialised and replayed 3 times".
std::string passesText(size_t passes) {
    if (passes == 1) return "1 pass: each matching launch is serialised (one pass: no replay)";
    return std::to_string(passes) + " passes: each matching launch is serialised and replayed " +
           std::to_string(passes) + " times";
}

} // namespace

KernelMetrics* KernelMetrics::create(StrataTraceWriter& writer, KernelMetricsSettings settings,
                                     Clock clock, Keep keep) {
    // Never destroyed, as the collector (atexit and forked children may look at it).
    auto* k = new KernelMetrics(writer, std::move(settings), clock, std::move(keep));
    std::string error;
    if (k->filter_.compile(k->settings_.regex, &error)) return k;
    k->warn("kernel metrics off: " + std::string(collector_env::kKernelMetrics) + "=\"" +
            k->settings_.regex + "\" is not a regular expression (ECMAScript): " + error);
    writer.metadata(collector_env::kMetaKernelMetrics,
                    "off: " + k->regexText() + " is not a regular expression");
    delete k;
    return nullptr;
}

KernelMetrics::KernelMetrics(StrataTraceWriter& writer, KernelMetricsSettings settings, Clock clock,
                             Keep keep)
    : writer_(writer), settings_(std::move(settings)), clock_(clock), keep_(std::move(keep)) {
    writer_.metadata(collector_env::kMetaKernelMetrics,
                     regexText() + ": " + std::to_string(settings_.metrics.size()) + " metrics (" +
                         settings_.asked +
                         "); the passes are said when a matching kernel's device is set up");
}

std::string KernelMetrics::regexText() const {
    return "/" + settings_.regex + "/";
}

void KernelMetrics::warn(const std::string& text) {
    writer_.warning(text);
    std::fprintf(stderr, "[strata] %s\n", text.c_str());
}

void KernelMetrics::onLaunch(const CUpti_CallbackData& info) {
    LaunchState& t = t_launch;
    if (info.callbackSite == CUPTI_API_ENTER) {
        if (++t.depth == 1) t.correlation = int64_t(info.correlationId);
        // Inside a call already looked at (the driver's launch in the runtime's), or a runtime
        // call before its context exists (the driver's call inside it has one).
        if (t.looked || !info.context) return;
        t.looked = true;
        std::string kernel;
        if (!filter_.matches(info.symbolName, &kernel)) return;
        t.startedAt = t.depth;
        if (begin(info.context, kernel)) t.kernel = std::move(kernel);
        return;
    }
    if (t.session && t.depth == t.startedAt) end(info);
    if (t.depth > 0 && --t.depth == 0) {
        t.correlation = -1;
        t.looked = false;
    }
}

// The entry of a matching launch: its context's range profiler (set up the first time) started.
bool KernelMetrics::begin(CUcontext context, const std::string& kernel) {
    std::lock_guard lock(mutex_);
    if (finished_) return false;
    ++totals_.matched;
    if (keep_ && !keep_(int64_t(clock_()))) {
        ++totals_.outside; // outside the capture: not replayed for nothing
        return false;
    }
    Session* s = sessionFor(context);
    if (!s) {
        ++totals_.unmeasured; // its device cannot be measured (said once)
        return false;
    }
    if (s->busy) {
        ++totals_.busy;
        return false;
    }
    std::string error;
    if (!s->range.begin(&error)) {
        launchFailed(*s, kernel, error);
        return false;
    }
    s->busy = true;
    t_launch.session = s;
    return true;
}

// The exit of the measured launch call: the range read and written for its correlation id.
void KernelMetrics::end(const CUpti_CallbackData& info) {
    LaunchState& t = t_launch;
    auto* s = static_cast<Session*>(t.session);
    std::lock_guard lock(mutex_);
    s->busy = false;
    if (finished_ || !s->range.isOpen()) { // finish() or the context's end stopped it
        t.session = nullptr;
        return;
    }
    std::vector<double> values;
    std::string error;
    const bool read = s->range.end(&values, &error);
    t.session = nullptr;
    // A launch that failed ran no kernel: nothing to measure, nothing to say.
    const auto* returned = static_cast<const int*>(info.functionReturnValue);
    if (returned && *returned != 0) return;
    if (!read) {
        launchFailed(*s, t.kernel, error);
        return;
    }
    writer_.kernelMetrics(t.correlation, int32_t(s->device), t.kernel, s->names, values.data(),
                          values.size());
    ++totals_.measured;
}

void KernelMetrics::launchFailed(Session& s, const std::string& kernel, const std::string& error) {
    ++totals_.failed;
    if (s.failureSaid) return;
    s.failureSaid = true;
    warn("kernel metrics of " + kernel + " on device " + std::to_string(s.device) +
         " not measured: " + error + " (further failures counted: kernel_metrics_failed)");
}

KernelMetrics::Session* KernelMetrics::sessionFor(CUcontext context) {
    auto it = sessions_.find(context);
    if (it != sessions_.end()) return it->second->range.isOpen() ? it->second.get() : nullptr;
    Session& s = *sessions_.emplace(context, std::make_unique<Session>()).first->second;
    return openSession(s, context) ? &s : nullptr;
}

bool KernelMetrics::openSession(Session& s, CUcontext context) {
    std::string error;
    if (const CUptiResult r = cuptiGetDeviceId(context, &s.device); r != CUPTI_SUCCESS) {
        warn("kernel metrics: the device of a CUDA context is unknown (" +
             gpu_metrics::cuptiCallError("cuptiGetDeviceId", int(r)) +
             "): its kernels are not measured");
        return false;
    }
    if (!profilerAcquired_) profilerAcquired_ = gpu_metrics::acquireProfiler(&error);
    if (profilerAcquired_ && s.range.open(context, s.device, settings_.metrics, &error)) {
        s.names = joined(s.range.setup().measured, "\n");
        describe(s);
        return true;
    }
    if (devicesSaid_.insert(s.device).second) {
        writer_.metadata(deviceKey(s.device), "not measured: " + error);
        warn("kernel metrics on device " + std::to_string(s.device) + " not measured: " + error +
             "; its kernels are recorded without them");
    }
    return false;
}

// The cost, said once per device before its first replay: on stderr and in the metadata; and
// the metrics the chip lacks, as a warning.
void KernelMetrics::describe(const Session& s) {
    if (!devicesSaid_.insert(s.device).second) return;
    const RangeSetup& r = s.range.setup();
    const std::string where = "device " + std::to_string(s.device) + " (" + r.chip + ")";
    std::string cost = regexText() + ": " + std::to_string(settings_.metrics.size()) +
                       " metrics (" + settings_.asked + "); " + where + ": " +
                       std::to_string(r.measured.size()) + " measured in " + passesText(r.passes);
    std::fprintf(stderr, "[strata] kernel metrics: %s\n", cost.c_str());
    if (!costSaid_) writer_.metadata(collector_env::kMetaKernelMetrics, cost);
    costSaid_ = true;
    std::string text = r.chip + ": " + std::to_string(r.passes) +
                       (r.passes == 1 ? " pass: " : " passes: ") + joined(r.measured, ", ");
    if (!r.lacking.empty()) text += "; not on this chip (warned): " + joined(r.lacking, ", ");
    writer_.metadata(deviceKey(s.device), text);
    if (!r.lacking.empty())
        warn("kernel metrics on " + where +
             ": not on this chip, not measured: " + joined(r.lacking, ", "));
}

void KernelMetrics::onContextDestroying(CUcontext context) {
    std::lock_guard lock(mutex_);
    auto it = sessions_.find(context);
    if (it == sessions_.end()) return;
    it->second->range.close();
    retired_.push_back(std::move(it->second)); // a thread inside a launch may still hold it
    sessions_.erase(it);
}

void KernelMetrics::finish() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    for (auto& [context, s] : sessions_) s->range.close();
    if (profilerAcquired_) gpu_metrics::releaseProfiler();
    profilerAcquired_ = false;
    const std::string key = collector_env::kMetaKernelMetrics;
    writer_.metadata(key + "_launches", std::to_string(totals_.measured));
    if (totals_.failed) writer_.metadata(key + "_failed", std::to_string(totals_.failed));
    if (totals_.unmeasured)
        writer_.metadata(key + "_unmeasured", std::to_string(totals_.unmeasured));
    if (totals_.busy) writer_.metadata(key + "_busy", std::to_string(totals_.busy));
    if (totals_.outside)
        writer_.metadata(key + "_outside_capture", std::to_string(totals_.outside));
    if (totals_.matched == 0)
        std::fprintf(stderr, "[strata] kernel metrics: no launched kernel matched %s\n",
                     regexText().c_str());
}

} // namespace strata::kernel_metrics
