// The CUDA 13 PM sampling flow for one device, as CUPTI's pm_sampling sample runs it: the device's
// support, its chip name and counter availability, a profiler host object with the metrics (one
// pass: PM sampling takes no more), the config image, cuptiPmSamplingEnable and SetConfig, the
// counter data image, Start; then DecodeData into the image, each completed sample's start and
// end (CounterDataGetSampleInfo) and values (cuptiProfilerHostEvaluateToGpuValues), the image
// reinitialised once read; Stop, the last decode, Disable and the host object's release.
#include "gpu_metrics/pm_sampler.h"

#include "collector_instance.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace strata::gpu_metrics {

namespace {

// A CUPTI parameter struct: zeroed, its size set (the X_STRUCT_SIZE of its header).
template <class P> P params(size_t size) {
    P p;
    std::memset(&p, 0, sizeof p);
    p.structSize = size;
    return p;
}
#define STRATA_PARAMS(T) params<T>(T##_STRUCT_SIZE)

bool ok(CUptiResult r, const char* call, std::string* error) {
    if (r == CUPTI_SUCCESS) return true;
    if (error) *error = cuptiCallError(call, int(r));
    return false;
}

bool metricUnknown(int r) {
    return r == CUPTI_ERROR_INVALID_METRIC_NAME || r == CUPTI_ERROR_INVALID_PARAMETER;
}

// How many rounds one decode() may take (each fills the counter data image once).
constexpr int kMaxRounds = 64;

} // namespace

std::string cuptiCallError(const char* call, int result) {
    std::string text = std::string(call) + ": " + cuptiErrorText(CUptiResult(result));
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
        result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        text += ": this user may not read the GPU's performance counters (run as root, or load "
                "the driver with NVreg_RestrictProfilingToAdminUsers=0)";
    return text;
}

PmSampler::~PmSampler() {
    release();
}

bool PmSampler::start(const SamplerConfig& config, std::string* error) {
    config_ = config;
    setup_ = SamplerSetup{};
    overflowPending_ = false;
    bool started = checkSupport(error) && readChip(error) && readAvailability(error) &&
                   chooseMetrics(error) && buildConfigImage(error) && enableAndConfigure(error) &&
                   initImage(error);
    if (started) {
        auto s = STRATA_PARAMS(CUpti_PmSampling_Start_Params);
        s.pPmSamplingObject = sampling_;
        started = ok(cuptiPmSamplingStart(&s), "cuptiPmSamplingStart", error);
    }
    if (!started) release();
    return started;
}

bool PmSampler::checkSupport(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    p.cuDevice = CUdevice(config_.device); // a device handle is its ordinal
    p.api = CUPTI_PROFILER_PM_SAMPLING;
    if (!ok(cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported", error)) return false;
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return true;
    const std::pair<const char*, CUpti_Profiler_Support_Level> parts[] = {
        {"its architecture", p.architecture},
        {"SLI", p.sli},
        {"vGPU", p.vGpu},
        {"confidential computing", p.confidentialCompute},
        {"a CMP board", p.cmp},
        {"WSL", p.wsl}};
    std::string why;
    for (const auto& [what, level] : parts) {
        if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why += std::string(why.empty() ? "" : ", ") + what;
        else if (level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
            why += std::string(why.empty() ? "" : ", ") + what + " (profiling disabled)";
    }
    *error = "the device does not support PM sampling" + (why.empty() ? "" : ": " + why);
    return false;
}

bool PmSampler::readChip(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_Device_GetChipName_Params);
    p.deviceIndex = config_.device;
    if (!ok(cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName", error)) return false;
    setup_.chip = p.pChipName ? p.pChipName : "";
    return true;
}

bool PmSampler::readAvailability(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    p.deviceIndex = config_.device;
    const char* call = "cuptiPmSamplingGetCounterAvailability";
    if (!ok(cuptiPmSamplingGetCounterAvailability(&p), call, error)) return false;
    availability_.assign(p.counterAvailabilityImageSize, 0);
    p.pCounterAvailabilityImage = availability_.data();
    return ok(cuptiPmSamplingGetCounterAvailability(&p), call, error);
}

bool PmSampler::tryMetrics(std::vector<const char*> names, std::string* error, int* added) {
    releaseHost();
    auto init = STRATA_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    init.pChipName = setup_.chip.c_str();
    init.pCounterAvailabilityImage = availability_.data();
    if (!ok(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize", error)) return false;
    host_ = init.pHostObject;
    auto add = STRATA_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    *added = int(cuptiProfilerHostConfigAddMetrics(&add));
    return true;
}

// All the wanted metrics by their first names at once (one host object); when the chip refuses
// that, each on its own, its names in order, to find which it has.
bool PmSampler::chooseMetrics(std::string* error) {
    std::vector<const char*> first;
    for (const MetricSpec& m : config_.metrics) first.push_back(m.names.front().c_str());
    int added = 0;
    if (!tryMetrics(first, error, &added)) return false;
    std::vector<MetricSpec>& chosen = setup_.recorded;
    if (added == CUPTI_SUCCESS) {
        for (const MetricSpec& m : config_.metrics)
            chosen.push_back(MetricSpec{{m.names.front()}, m.label, m.divisor, m.optional});
    } else if (!metricUnknown(added)) {
        return ok(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error);
    } else {
        for (const MetricSpec& m : config_.metrics) {
            bool found = false;
            for (const std::string& name : m.names) {
                if (!tryMetrics({name.c_str()}, error, &added)) return false;
                if (added == CUPTI_SUCCESS) {
                    chosen.push_back(MetricSpec{{name}, m.label, m.divisor, m.optional});
                    found = true;
                    break;
                }
                if (!metricUnknown(added))
                    return ok(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error);
            }
            if (!found) (m.optional ? setup_.optionalLacking : setup_.lacking).push_back(m.label);
        }
    }
    if (chosen.empty()) {
        *error = "the chip (" + setup_.chip + ") has none of the metrics asked for";
        return false;
    }
    return true;
}

// The config image of the chosen metrics; while they need more than one pass, the last optional
// one (else the last one) is left out.
bool PmSampler::buildConfigImage(std::string* error) {
    for (;;) {
        names_.clear();
        for (const MetricSpec& m : setup_.recorded) names_.push_back(m.names.front().c_str());
        int added = 0;
        if (!tryMetrics(names_, error, &added)) return false;
        if (!ok(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error)) return false;
        auto size = STRATA_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
        size.pHostObject = host_;
        if (!ok(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize",
                error))
            return false;
        configImage_.assign(size.configImageSize, 0);
        auto image = STRATA_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
        image.pHostObject = host_;
        image.configImageSize = configImage_.size();
        image.pConfigImage = configImage_.data();
        if (!ok(cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage", error))
            return false;
        auto passes = STRATA_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
        passes.configImageSize = configImage_.size();
        passes.pConfigImage = configImage_.data();
        if (!ok(cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses", error))
            return false;
        if (passes.numOfPasses == 1) break;
        if (passes.numOfPasses == 0 || setup_.recorded.size() == 1) {
            *error = "the metrics need " + std::to_string(passes.numOfPasses) +
                     " passes; PM sampling takes one";
            return false;
        }
        auto& r = setup_.recorded;
        auto drop =
            std::find_if(r.rbegin(), r.rend(), [](const MetricSpec& m) { return m.optional; });
        const auto at = drop != r.rend() ? std::next(drop).base() : std::prev(r.end());
        setup_.overPass.push_back(at->label);
        r.erase(at);
    }
    values_.assign(names_.size(), 0.0);
    return true;
}

bool PmSampler::enableAndConfigure(std::string* error) {
    auto enable = STRATA_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = config_.device;
    if (!ok(cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable", error)) return false;
    sampling_ = enable.pPmSamplingObject;
    auto c = STRATA_PARAMS(CUpti_PmSampling_SetConfig_Params);
    c.pPmSamplingObject = sampling_;
    c.configSize = configImage_.size();
    c.pConfig = configImage_.data();
    c.hardwareBufferSize = config_.hardwareBufferBytes;
    c.samplingInterval = config_.intervalNs;
    // A fixed interval in ns (GA10x and later; Turing and GA100 refuse it, said as an error).
    c.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    // Oldest kept: an overflow is reported (and counted) rather than silently overwritten.
    c.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    return ok(cuptiPmSamplingSetConfig(&c), "cuptiPmSamplingSetConfig", error);
}

bool PmSampler::initImage(std::string* error) {
    if (counterData_.empty()) {
        auto size = STRATA_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
        size.pPmSamplingObject = sampling_;
        size.pMetricNames = names_.data();
        size.numMetrics = names_.size();
        size.maxSamples = config_.maxSamples;
        if (!ok(cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize",
                error))
            return false;
        counterData_.assign(size.counterDataSize, 0);
    }
    auto init = STRATA_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    init.pPmSamplingObject = sampling_;
    init.counterDataSize = counterData_.size();
    init.pCounterData = counterData_.data();
    return ok(cuptiPmSamplingCounterDataImageInitialize(&init),
              "cuptiPmSamplingCounterDataImageInitialize", error);
}

// After CUPTI refused to decode an overflowing buffer: the session stopped and started again.
bool PmSampler::restart(std::string* error) {
    auto stop = STRATA_PARAMS(CUpti_PmSampling_Stop_Params);
    stop.pPmSamplingObject = sampling_;
    cuptiPmSamplingStop(&stop); // it may have stopped by itself
    auto start = STRATA_PARAMS(CUpti_PmSampling_Start_Params);
    start.pPmSamplingObject = sampling_;
    return ok(cuptiPmSamplingStart(&start), "cuptiPmSamplingStart (after an overflow)", error) &&
           initImage(error);
}

bool PmSampler::deliver(size_t index, const SampleSink& sink, std::string* error) {
    auto info = STRATA_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
    info.pPmSamplingObject = sampling_;
    info.pCounterDataImage = counterData_.data();
    info.counterDataImageSize = counterData_.size();
    info.sampleIndex = index;
    if (!ok(cuptiPmSamplingCounterDataGetSampleInfo(&info),
            "cuptiPmSamplingCounterDataGetSampleInfo", error))
        return false;
    std::fill(values_.begin(), values_.end(), std::numeric_limits<double>::quiet_NaN());
    auto eval = STRATA_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_;
    eval.pCounterDataImage = counterData_.data();
    eval.counterDataImageSize = counterData_.size();
    eval.rangeIndex = index;
    eval.ppMetricNames = names_.data();
    eval.numMetrics = names_.size();
    eval.pMetricValues = values_.data();
    if (!ok(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues",
            error))
        return false;
    sink(PmSample{info.startTimestamp, info.endTimestamp, values_.data(), overflowPending_});
    overflowPending_ = false;
    return true;
}

PmSampler::Round PmSampler::decodeRound(const SampleSink& sink, DecodeResult* r) {
    auto d = STRATA_PARAMS(CUpti_PmSampling_DecodeData_Params);
    d.pPmSamplingObject = sampling_;
    d.pCounterDataImage = counterData_.data();
    d.counterDataImageSize = counterData_.size();
    const CUptiResult decoded = cuptiPmSamplingDecodeData(&d);
    if (decoded == CUPTI_ERROR_OUT_OF_MEMORY) { // the hardware buffer overflowed
        ++r->overflows;
        overflowPending_ = true;
        return restart(&r->error) ? Round::Again : Round::Failed;
    }
    if (!ok(decoded, "cuptiPmSamplingDecodeData", &r->error)) return Round::Failed;
    if (d.overflow) {
        ++r->overflows;
        overflowPending_ = true;
    }
    auto info = STRATA_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = counterData_.data();
    info.counterDataImageSize = counterData_.size();
    if (!ok(cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo",
            &r->error))
        return Round::Failed;
    for (size_t i = 0; i < info.numCompletedSamples; ++i) {
        if (!deliver(i, sink, &r->error)) return Round::Failed;
        ++r->samples;
    }
    const bool full = d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    if ((info.numCompletedSamples > 0 || full) && !initImage(&r->error)) return Round::Failed;
    return full ? Round::Again : Round::Done;
}

DecodeResult PmSampler::decode(const SampleSink& sink) {
    DecodeResult r;
    for (int round = 0; sampling_ && round < kMaxRounds; ++round) {
        const Round x = decodeRound(sink, &r);
        if (x == Round::Failed) release();
        if (x != Round::Again) break;
    }
    return r;
}

DecodeResult PmSampler::stop(const SampleSink& sink) {
    DecodeResult r;
    if (!sampling_) return r;
    auto stop = STRATA_PARAMS(CUpti_PmSampling_Stop_Params);
    stop.pPmSamplingObject = sampling_;
    if (ok(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop", &r.error)) r = decode(sink);
    release();
    return r;
}

void PmSampler::release() {
    if (sampling_) {
        auto disable = STRATA_PARAMS(CUpti_PmSampling_Disable_Params);
        disable.pPmSamplingObject = sampling_;
        cuptiPmSamplingDisable(&disable);
        sampling_ = nullptr;
    }
    releaseHost();
}

void PmSampler::releaseHost() {
    if (!host_) return;
    auto deinit = STRATA_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    deinit.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&deinit);
    host_ = nullptr;
}

} // namespace strata::gpu_metrics
