#pragma once
// One CUDA context's range profiler for --kernel-metrics (CUDA 12.6+ API, cupti_range_profiler.h
// with the profiler host of gpu_metrics/profiler_host.h): set up once, at the first matching
// launch in the context, then one launch measured at a time, begin() on the launch call's entry
// and end() on its exit. Not thread-safe: kernel_metrics.h serialises its calls. Every failure
// is text naming the CUPTI call and its error; nothing here is fatal to the program.
//
// The mode is CUPTI_KernelReplay with CUPTI_AutoRange, one range per pass. Auto range makes a
// range of each kernel launched between Start and Stop, and Start and Stop bracket one launch
// call, so the range is that launch's kernel and nothing else; kernel replay has CUPTI save the
// memory the kernel touches and replay it once per pass inside the launch, so every pass sees
// the same kernel and the program needs no replay of its own (CUPTI serialises the launches it
// measures). A user range would hold whatever else the context runs between its push and pop,
// and kernel replay replays kernels, not ranges: CUPTI's samples pair user ranges with user or
// application replay.
#include "gpu_metrics/profiler_host.h"

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct CUpti_RangeProfiler_Object;

namespace strata::kernel_metrics {

// What open() made of the wanted metrics.
struct RangeSetup {
    uint32_t device = 0;
    std::string chip;
    std::vector<std::string> measured; // the metrics the chip has, in the wanted order
    std::vector<std::string> lacking;  // those it has not
    size_t passes = 0;                 // how often each launch is replayed
};

class RangeSession {
public:
    RangeSession() = default;
    ~RangeSession(); // disables the profiler on the context, releases the host object
    RangeSession(const RangeSession&) = delete;
    RangeSession& operator=(const RangeSession&) = delete;

    // cuptiProfilerInitialize must have been called. From the device's support through the
    // range profiler enabled on `context` with a counter data image; false with *error set (all
    // released) when it cannot.
    bool open(CUcontext context, uint32_t device, const std::vector<std::string>& metrics,
              std::string* error);
    // What open() made of the metrics: valid from its return (also when it failed).
    const RangeSetup& setup() const { return setup_; }
    bool isOpen() const { return object_ != nullptr; }
    // Before the launch: the counter data image emptied, the configuration set, Start.
    bool begin(std::string* error);
    // After the launch: Stop, DecodeData and the one range's values, one per setup().measured
    // (NaN where CUPTI has none).
    bool end(std::vector<double>* values, std::string* error);
    // Disable and the host object: the end of the session (also what the destructor does).
    void close();

private:
    bool readAvailability(std::string* error);
    bool chooseMetrics(const std::vector<std::string>& metrics, std::string* error);
    bool enable(std::string* error);
    bool sizeCounterData(std::string* error);
    bool initCounterData(std::string* error);
    bool setConfig(std::string* error);
    bool decode(std::string* error);

    CUcontext context_ = nullptr;
    RangeSetup setup_;
    gpu_metrics::ProfilerHost host_{CUPTI_PROFILER_TYPE_RANGE_PROFILER};
    std::vector<uint8_t> configImage_, counterData_;
    std::vector<const char*> names_; // setup_.measured as CUPTI takes them
    CUpti_RangeProfiler_Object* object_ = nullptr;
    bool started_ = false;
};

} // namespace strata::kernel_metrics
