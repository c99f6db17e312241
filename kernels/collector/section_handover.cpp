#include "section_handover.h"

#include "collector_instance.h"
#include "kernel_metrics/kernel_metrics.h"
#include "strata/sections_abi.h"

#include <string_view>
#include <vector>

namespace strata {

namespace {

constexpr CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
};
constexpr CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

template <size_t N> bool contains(const CUpti_CallbackId (&ids)[N], CUpti_CallbackId id) {
    for (CUpti_CallbackId x : ids)
        if (x == id) return true;
    return false;
}

// This thread's last kernel launch, and how deep it is inside runtime launch calls (the runtime
// launches through the driver: the runtime call's correlation id is the one its kernel carries).
thread_local int64_t t_lastLaunch = -1;
thread_local int t_inRuntimeLaunch = 0;

} // namespace

bool onLaunchApi(Collector& c, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                 const void* data) {
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API && contains(kRuntimeLaunches, cbid);
    const bool driver = domain == CUPTI_CB_DOMAIN_DRIVER_API && contains(kDriverLaunches, cbid);
    if (!runtime && !driver) return false;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (!info) return true;
    if (c.kernelMetrics) c.kernelMetrics->onLaunch(*info);
    if (runtime) {
        if (info->callbackSite == CUPTI_API_ENTER) {
            ++t_inRuntimeLaunch;
        } else {
            if (t_inRuntimeLaunch > 0) --t_inRuntimeLaunch;
            t_lastLaunch = int64_t(info->correlationId);
        }
    } else if (info->callbackSite == CUPTI_API_EXIT && t_inRuntimeLaunch == 0) {
        t_lastLaunch = int64_t(info->correlationId);
    }
    return true;
}

void enableLaunchCallbacks(Collector& c) {
    for (CUpti_CallbackId id : kRuntimeLaunches)
        cuptiEnableCallback(1, c.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
    for (CUpti_CallbackId id : kDriverLaunches)
        cuptiEnableCallback(1, c.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
}

} // namespace strata

using strata::g_collector;

extern "C" __attribute__((visibility("default"))) int strata_collector_sections_arm(void) {
    if (!strata::recording()) return 0;
    strata::Collector& c = *g_collector;
    bool expected = false;
    if (c.sectionsArmed.compare_exchange_strong(expected, true)) {
        strata::enableLaunchCallbacks(c);
        c.writer.metadata("sections", "a section helper armed launch tracking");
    }
    return 1;
}

extern "C" __attribute__((visibility("default"))) int64_t strata_collector_last_launch(void) {
    return strata::t_lastLaunch;
}

extern "C" __attribute__((visibility("default"))) int
strata_collector_sections_submit(const StrataSectionsSubmission* s) {
    if (!s || s->version != STRATA_SECTIONS_ABI_VERSION || !strata::recording()) return 0;
    if (s->record_count && !s->records) return 0;
    strata::StrataTraceWriter::SectionsLaunch l;
    l.correlation = s->correlation >= 0 ? s->correlation : strata::t_lastLaunch;
    l.kernel = s->kernel ? std::string_view(s->kernel) : std::string_view();
    for (uint32_t i = 0; i < s->name_count; ++i)
        l.names.emplace_back(s->names && s->names[i] ? s->names[i] : "");
    l.device = s->device;
    l.scope = uint8_t(s->scope);
    l.clockHz = s->clock_hz;
    l.attempted = s->attempted;
    l.records = static_cast<const uint8_t*>(s->records);
    l.count = size_t(s->record_count);
    g_collector->writer.sections(l);
    if (s->attempted > s->record_count)
        g_collector->writer.warning("sections of kernel " + std::string(l.kernel) + ": " +
                                    std::to_string(s->attempted - s->record_count) +
                                    " records lost, the device buffer was full");
    return 1;
}
