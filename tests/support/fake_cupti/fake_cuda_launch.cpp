// libfake_cuda_launch.so: what a CUDA program does, played on the stand-in CUPTI, for Python
// programs recorded with the tests' collector (tests/python/tst_python_fake_cuda): cuInit
// loading the injection (fake_cuda_init) and kernel launches (fake_cuda_launch) whose runtime
// API record and kernel record, correlated, reach the collector as CUPTI would hand them over.
#include "../collector_harness/collector_harness_feed.h"

#include <atomic>
#include <dlfcn.h>
#include <mutex>
#include <set>
#include <string>

namespace {

std::atomic<uint32_t> g_correlation{1000};

// The kernel names records point at live as long as the process.
const char* keep(const char* name) {
    static std::mutex m;
    static std::set<std::string> names;
    std::lock_guard lock(m);
    return names.insert(name).first->c_str();
}

} // namespace

// cuInit: the driver loads CUDA_INJECTION64_PATH and calls its InitializeInjection.
extern "C" __attribute__((visibility("default"))) int fake_cuda_init(void) {
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!lib && path) lib = dlopen(path, RTLD_NOW);
    auto init = lib ? reinterpret_cast<int (*)()>(dlsym(lib, "InitializeInjection")) : nullptr;
    return init ? init() : 0;
}

// cudaLaunchKernel from the calling thread: the API call lasts ~20 us, the kernel `kernelNs`
// after 5 us in the queue.
extern "C" __attribute__((visibility("default"))) void fake_cuda_launch(const char* name,
                                                                        uint64_t kernelNs) {
    const uint32_t corr = g_correlation.fetch_add(1);
    CUpti_CallbackData enter{};
    enter.callbackSite = CUPTI_API_ENTER;
    enter.functionName = "cudaLaunchKernel";
    enter.correlationId = corr;
    fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API,
                               CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &enter);
    const uint64_t start = fake_cupti_now();
    while (fake_cupti_now() - start < 20'000) {
    }
    const uint64_t end = fake_cupti_now();
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, start, end, corr);
    kernel(keep(name), end + 5'000, end + 5'000 + kernelNs, corr);
}
