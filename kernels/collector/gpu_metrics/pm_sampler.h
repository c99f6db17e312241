#pragma once
// One device's PM sampling session through CUPTI (CUDA 12.6+ API, cupti_pmsampling.h and
// cupti_profiler_host.h): the metrics the chip has chosen and configured, sampling started, the
// samples decoded from the hardware buffer on request, and everything released at the end. Not
// thread-safe: gpu_metrics.h serialises its calls. Every failure is returned as text naming the
// CUPTI call and its error; nothing here is fatal to the program.
#include "gpu_metrics/metric_set.h"
#include "gpu_metrics/profiler_host.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct CUpti_PmSampling_Object;

namespace strata::gpu_metrics {

struct SamplerConfig {
    uint32_t device = 0;
    std::vector<MetricSpec> metrics; // wanted
    uint64_t intervalNs = 100'000;
    size_t hardwareBufferBytes = 128u << 20;
    uint32_t maxSamples = 4096; // per counter data image (it is reinitialised when full)
};

// What start() made of the wanted metrics.
struct SamplerSetup {
    std::string chip;                         // "GH100"
    std::vector<MetricSpec> recorded;         // each with the one CUPTI name in use
    std::vector<std::string> lacking;         // labels of wanted metrics the chip has none of
    std::vector<std::string> optionalLacking; // the same, for the default set's optional ones
    std::vector<std::string> overPass; // labels left out: with them the set needs a second pass
};

// A decoded sample: GPU time (ns) and one value per recorded metric, in their order (NaN when
// CUPTI has none).
struct PmSample {
    uint64_t startNs = 0, endNs = 0;
    const double* values = nullptr;
    bool afterOverflow = false; // the first sample since the hardware buffer overflowed
};
using SampleSink = std::function<void(const PmSample&)>;

struct DecodeResult {
    size_t samples = 0;
    int overflows = 0; // the hardware buffer overflowed (reported, or decoding refused: restarted)
    std::string error; // a call failed: the device's sampling cannot go on
};

class PmSampler {
public:
    PmSampler() = default;
    ~PmSampler(); // releases what is left, without decoding
    PmSampler(const PmSampler&) = delete;
    PmSampler& operator=(const PmSampler&) = delete;

    // cuptiProfilerInitialize must have been called once in the process. From the device's
    // support through cuptiPmSamplingStart; false with *error set (all released) when it cannot.
    bool start(const SamplerConfig& config, std::string* error);
    // What start() made of the metrics: valid from its return (also when it failed).
    const SamplerSetup& setup() const { return setup_; }
    // Decodes what the hardware buffer holds into the counter data image and hands each completed
    // sample to `sink`, reinitialising the image when it is full.
    DecodeResult decode(const SampleSink& sink);
    // Stop, the last samples (to `sink`), Disable, the host object: the end of the session.
    DecodeResult stop(const SampleSink& sink);
    bool running() const { return sampling_ != nullptr; }

private:
    enum class Round { Done, Again, Failed };
    bool readChipAndAvailability(std::string* error);
    bool chooseMetrics(std::string* error);
    bool buildConfigImage(std::string* error);
    bool enableAndConfigure(std::string* error);
    bool initImage(std::string* error);
    bool restart(std::string* error);
    Round decodeRound(const SampleSink& sink, DecodeResult* r);
    bool deliver(size_t index, const SampleSink& sink, std::string* error);
    void release();

    SamplerConfig config_;
    SamplerSetup setup_;
    bool overflowPending_ = false;
    std::vector<uint8_t> configImage_, counterData_;
    std::vector<const char*> names_; // the recorded metrics' CUPTI names (setup_->recorded)
    std::vector<double> values_;
    ProfilerHost host_{CUPTI_PROFILER_TYPE_PM_SAMPLING};
    CUpti_PmSampling_Object* sampling_ = nullptr;
};

} // namespace strata::gpu_metrics
