// The CUDA 13 PM sampling flow for one device, as CUPTI's pm_sampling sample runs it: the device's
// support, its chip name and counter availability, a profiler host object with the metrics
// (profiler_host.h; one pass: PM sampling takes no more), the config image, cuptiPmSamplingEnable
// and SetConfig, the counter data image, Start; then DecodeData into the image, each completed
// sample's start and end (CounterDataGetSampleInfo) and values
// (cuptiProfilerHostEvaluateToGpuValues), the image reinitialised once read; Stop, the last decode,
// Disable and the host object's release.
#include "gpu_metrics/pm_sampler.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_target.h>

#include <algorithm>
#include <utility>

#define STRATA_PARAMS STRATA_CUPTI_PARAMS

namespace strata::gpu_metrics {

namespace {

bool ok(CUptiResult r, const char* call, std::string* error) {
    return cuptiOk(r, call, error);
}

// How many rounds one decode() may take (each fills the counter data image once).
constexpr int kMaxRounds = 64;

} // namespace

PmSampler::~PmSampler() {
    release();
}

bool PmSampler::start(const SamplerConfig& config, std::string* error) {
    config_ = config;
    setup_ = SamplerSetup{};
    overflowPending_ = false;
    bool started =
        checkProfilerSupport(config_.device, CUPTI_PROFILER_PM_SAMPLING, "PM sampling", error) &&
        readChipAndAvailability(error) && chooseMetrics(error) && buildConfigImage(error) &&
        enableAndConfigure(error) && initImage(error);
    if (started) {
        auto s = STRATA_PARAMS(CUpti_PmSampling_Start_Params);
        s.pPmSamplingObject = sampling_;
        started = ok(cuptiPmSamplingStart(&s), "cuptiPmSamplingStart", error);
    }
    if (!started) release();
    return started;
}

// The chip's name, and its counter availability as PM sampling reads it (the range profiler
// has a call of its own).
bool PmSampler::readChipAndAvailability(std::string* error) {
    if (!readChipName(config_.device, &setup_.chip, error)) return false;
    auto p = STRATA_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    p.deviceIndex = config_.device;
    const char* call = "cuptiPmSamplingGetCounterAvailability";
    if (!ok(cuptiPmSamplingGetCounterAvailability(&p), call, error)) return false;
    std::vector<uint8_t> availability(p.counterAvailabilityImageSize, 0);
    p.pCounterAvailabilityImage = availability.data();
    if (!ok(cuptiPmSamplingGetCounterAvailability(&p), call, error)) return false;
    host_.setChip(setup_.chip, std::move(availability));
    return true;
}

bool PmSampler::chooseMetrics(std::string* error) {
    MetricChoice choice;
    if (!host_.choose(config_.metrics, &choice, error)) return false;
    setup_.recorded = std::move(choice.recorded);
    setup_.lacking = std::move(choice.lacking);
    setup_.optionalLacking = std::move(choice.optionalLacking);
    if (setup_.recorded.empty()) {
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
        size_t passes = 0;
        if (!host_.configure(names_, &configImage_, &passes, error)) return false;
        if (passes == 1) break;
        if (passes == 0 || setup_.recorded.size() == 1) {
            *error =
                "the metrics need " + std::to_string(passes) + " passes; PM sampling takes one";
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
    if (!host_.evaluate(counterData_, index, names_, values_.data(), error)) return false;
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
    host_.release();
}

} // namespace strata::gpu_metrics
