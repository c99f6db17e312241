// The range profiler's flow for one context, as CUPTI's range_profiling sample runs it: the
// device's support, its chip name, the context's counter availability (read before the profiler
// is enabled: CUPTI may refuse it while a session is active), a profiler host object with the
// metrics the chip has, the config image and its passes, cuptiRangeProfilerEnable, a counter
// data image for one range. Then per launch: the image initialised, SetConfig, Start; Stop,
// DecodeData, the range's values (cuptiProfilerHostEvaluateToGpuValues). Disable at the end.
#include "kernel_metrics/range_session.h"

#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <utility>

#define STRATA_PARAMS STRATA_CUPTI_PARAMS

namespace strata::kernel_metrics {

namespace {

using gpu_metrics::cuptiOk;

// One launch per session: the image holds its one range (a range tree of one node).
constexpr size_t kRangesPerLaunch = 1;

} // namespace

RangeSession::~RangeSession() {
    close();
}

bool RangeSession::open(CUcontext context, uint32_t device, const std::vector<std::string>& metrics,
                        std::string* error) {
    close();
    context_ = context;
    setup_ = RangeSetup{};
    setup_.device = device;
    names_.clear();
    const bool opened = gpu_metrics::checkProfilerSupport(device, CUPTI_PROFILER_RANGE_PROFILING,
                                                          "CUPTI's range profiler", error) &&
                        gpu_metrics::readChipName(device, &setup_.chip, error) &&
                        readAvailability(error) && chooseMetrics(metrics, error) && enable(error) &&
                        sizeCounterData(error);
    if (!opened) close();
    return opened;
}

bool RangeSession::readAvailability(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    p.ctx = context_;
    const char* call = "cuptiProfilerGetCounterAvailability";
    if (!cuptiOk(cuptiProfilerGetCounterAvailability(&p), call, error)) return false;
    std::vector<uint8_t> availability(p.counterAvailabilityImageSize, 0);
    p.pCounterAvailabilityImage = availability.data();
    if (!cuptiOk(cuptiProfilerGetCounterAvailability(&p), call, error)) return false;
    host_.setChip(setup_.chip, std::move(availability));
    return true;
}

// The metrics the chip has (a lacking one is left out: the caller warns), and the config image
// of those with the passes it needs; any number of passes is fine, kernel replay makes them.
bool RangeSession::chooseMetrics(const std::vector<std::string>& metrics, std::string* error) {
    std::vector<gpu_metrics::MetricSpec> wanted;
    for (const std::string& m : metrics) wanted.push_back({{m}, m, 1.0, false});
    gpu_metrics::MetricChoice choice;
    if (!host_.choose(wanted, &choice, error)) return false;
    for (const gpu_metrics::MetricSpec& m : choice.recorded)
        setup_.measured.push_back(m.names.front());
    setup_.lacking = std::move(choice.lacking);
    if (setup_.measured.empty()) {
        *error = "the chip (" + setup_.chip + ") has none of the metrics asked for";
        return false;
    }
    for (const std::string& m : setup_.measured) names_.push_back(m.c_str());
    if (!host_.configure(names_, &configImage_, &setup_.passes, error)) return false;
    if (setup_.passes == 0) {
        *error = "cuptiProfilerHostGetNumOfPasses: no pass for the metrics";
        return false;
    }
    return true;
}

bool RangeSession::enable(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_RangeProfiler_Enable_Params);
    p.ctx = context_;
    if (!cuptiOk(cuptiRangeProfilerEnable(&p), "cuptiRangeProfilerEnable", error)) return false;
    object_ = p.pRangeProfilerObject;
    return true;
}

bool RangeSession::sizeCounterData(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    p.pRangeProfilerObject = object_;
    p.pMetricNames = names_.data();
    p.numMetrics = names_.size();
    p.maxNumOfRanges = kRangesPerLaunch;
    p.maxNumRangeTreeNodes = kRangesPerLaunch;
    if (!cuptiOk(cuptiRangeProfilerGetCounterDataSize(&p), "cuptiRangeProfilerGetCounterDataSize",
                 error))
        return false;
    counterData_.assign(p.counterDataSize, 0);
    return true;
}

bool RangeSession::initCounterData(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    p.pRangeProfilerObject = object_;
    p.counterDataSize = counterData_.size();
    p.pCounterData = counterData_.data();
    return cuptiOk(cuptiRangeProfilerCounterDataImageInitialize(&p),
                   "cuptiRangeProfilerCounterDataImageInitialize", error);
}

// Set again for every launch, with the image just emptied: each launch is a session of its own
// whose one range is range 0 (a session's ranges would otherwise pile up in the image).
bool RangeSession::setConfig(std::string* error) {
    auto p = STRATA_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    p.pRangeProfilerObject = object_;
    p.configSize = configImage_.size();
    p.pConfig = configImage_.data();
    p.counterDataImageSize = counterData_.size();
    p.pCounterDataImage = counterData_.data();
    p.range = CUPTI_AutoRange;         // a range per kernel: the one this launch makes
    p.replayMode = CUPTI_KernelReplay; // CUPTI replays it once per pass, inside the launch
    p.maxRangesPerPass = kRangesPerLaunch;
    p.numNestingLevels = 1; // auto range: one level
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    return cuptiOk(cuptiRangeProfilerSetConfig(&p), "cuptiRangeProfilerSetConfig", error);
}

bool RangeSession::begin(std::string* error) {
    if (!object_ || started_) {
        *error = "the range profiler is not ready for a launch";
        return false;
    }
    if (!initCounterData(error) || !setConfig(error)) return false;
    auto p = STRATA_PARAMS(CUpti_RangeProfiler_Start_Params);
    p.pRangeProfilerObject = object_;
    started_ = cuptiOk(cuptiRangeProfilerStart(&p), "cuptiRangeProfilerStart", error);
    return started_;
}

bool RangeSession::decode(std::string* error) {
    auto d = STRATA_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    d.pRangeProfilerObject = object_;
    if (!cuptiOk(cuptiRangeProfilerDecodeData(&d), "cuptiRangeProfilerDecodeData", error))
        return false;
    auto info = STRATA_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counterData_.data();
    info.counterDataImageSize = counterData_.size();
    if (!cuptiOk(cuptiRangeProfilerGetCounterDataInfo(&info),
                 "cuptiRangeProfilerGetCounterDataInfo", error))
        return false;
    if (d.numOfRangeDropped > 0 || info.numTotalRanges != kRangesPerLaunch) {
        *error = "CUPTI gave " + std::to_string(info.numTotalRanges) + " ranges (" +
                 std::to_string(d.numOfRangeDropped) + " dropped) for the launch, expected 1";
        return false;
    }
    return true;
}

bool RangeSession::end(std::vector<double>* values, std::string* error) {
    if (!started_) {
        *error = "the range profiler was not started for the launch";
        return false;
    }
    started_ = false;
    auto stop = STRATA_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = object_;
    if (!cuptiOk(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop", error)) return false;
    // Kernel replay submits every pass inside the launch; anything else is a CUPTI we do not know.
    if (!stop.isAllPassSubmitted) {
        *error = "cuptiRangeProfilerStop: not all " + std::to_string(setup_.passes) +
                 " passes were submitted in the launch";
        return false;
    }
    if (!decode(error)) return false;
    values->assign(names_.size(), 0.0);
    return host_.evaluate(counterData_, 0, names_, values->data(), error);
}

void RangeSession::close() {
    if (object_) {
        if (started_) {
            auto stop = STRATA_PARAMS(CUpti_RangeProfiler_Stop_Params);
            stop.pRangeProfilerObject = object_;
            cuptiRangeProfilerStop(&stop);
        }
        auto p = STRATA_PARAMS(CUpti_RangeProfiler_Disable_Params);
        p.pRangeProfilerObject = object_;
        cuptiRangeProfilerDisable(&p);
        object_ = nullptr;
    }
    started_ = false;
    host_.release();
}

} // namespace strata::kernel_metrics
