#pragma once
// Decodes CUPTI's NVTX callbacks (CUPTI_CB_DOMAIN_NVTX, parameters from generated_nvtx_meta.h)
// into the few events the capture schedule needs: ranges pushed/popped or started/ended, marks.
// ASCII messages only (wide-character and registered-string messages give no name).
#include <cupti.h>

#include <cstdint>

namespace strata {

struct NvtxEvent {
    enum Kind { None, Push, Pop, Mark, Start, End } kind = None;
    const char* name = nullptr; // Push, Mark, Start (may be null)
    uint64_t id = 0;            // Start (the returned range id), End
};

NvtxEvent decodeNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData* data);

} // namespace strata
