#pragma once
// In-kernel sections handed over by the host helper (kernels/include/strata/sections_host.h,
// the C functions of strata/sections_abi.h, exported by the collector): the correlation id of
// each thread's last kernel launch, noted once a helper armed it, and the records written into
// the trace as Sections records attached to that launch.
#include <cupti.h>

namespace strata {

class Collector;

// A runtime or driver launch callback (the launch cbids enabled by arming, or by
// --kernel-metrics): notes the launch's correlation id on this thread and hands the call to
// --kernel-metrics when it runs. False for any other callback.
bool onLaunchApi(Collector& c, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                 const void* data);
// Enables the runtime and driver launch callbacks (entry and exit) on the collector's subscriber.
void enableLaunchCallbacks(Collector& c);

} // namespace strata
