// The library's C entry points: InitializeInjection (CUDA_INJECTION64_PATH),
// InitializeInjectionNvtx2 (NVTX_INJECTION64_PATH, forwarded to CUPTI's own so CUPTI records NVTX
// as MARKER activity), and two small hooks tests and the launcher's self-checks use.
#include "collector.h"
#include "collector_instance.h"
#include "contract/collector_env.h"

#include <cstdlib>
#include <cupti.h>
#include <dlfcn.h>

#define STRATA_EXPORT extern "C" __attribute__((visibility("default")))

// Loaded with STRATA_CPU_SAMPLE set (strata-cli record --cpu-sample puts the collector in
// LD_PRELOAD): native stacks from before main (collector_native.cpp).
__attribute__((constructor)) static void startWhenSampling() {
    if (const char* hz = std::getenv(strata::collector_env::kCpuSample); hz && *hz)
        strata::startSamplingAtLoad(hz);
}

STRATA_EXPORT int InitializeInjection(void) {
    strata::collectorStart(strata::StartedBy::Cuda);
    return 1; // never fail the target's cuInit
}

// NVTX's loader calls this with its export-table getter (nvtx3/nvtxDetail/nvtxInit.h, load
// sequence v2). CUPTI implements NVTX tracing in its own InitializeInjectionNvtx2: forward to it.
STRATA_EXPORT int InitializeInjectionNvtx2(void* getExportTable) {
    strata::collectorStart(strata::StartedBy::Nvtx);
    using Fn = int (*)(void*);
    // The CUPTI library we are linked to: found through one of its functions, so the lookup
    // cannot land on this library's own InitializeInjectionNvtx2.
    Fn next = nullptr;
    Dl_info cupti{};
    if (dladdr(reinterpret_cast<void*>(&cuptiSubscribe_v2), &cupti) && cupti.dli_fname) {
        if (void* h = dlopen(cupti.dli_fname, RTLD_LAZY | RTLD_NOLOAD)) {
            next = reinterpret_cast<Fn>(dlsym(h, "InitializeInjectionNvtx2"));
            dlclose(h);
        }
    }
    if (!next) next = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "InitializeInjectionNvtx2"));
    if (!next) {
        strata::collectorWarning(
            "NVTX not captured: the CUPTI library has no InitializeInjectionNvtx2");
        return 0; // NVTX calls stay no-ops
    }
    return next(getExportTable);
}

STRATA_EXPORT int strata_collector_state(void) {
    return static_cast<int>(strata::collectorState());
}
STRATA_EXPORT int strata_collector_flush(void) {
    return strata::collectorFlushNow() ? 1 : 0;
}
STRATA_EXPORT void strata_collector_shutdown(void) {
    strata::collectorShutdown();
}
