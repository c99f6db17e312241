#include "activities/nvtx_events.h"

#include <generated_nvtx_meta.h>

namespace strata {

namespace {
const char* ascii(const nvtxEventAttributes_t* a) {
    if (!a || a->messageType != NVTX_MESSAGE_TYPE_ASCII) return nullptr;
    return a->message.ascii;
}
template <class P> const P* params(const CUpti_NvtxData* d) {
    return static_cast<const P*>(d->functionParams);
}
} // namespace

NvtxEvent decodeNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData* d) {
    NvtxEvent e;
    if (!d) return e;
    const bool hasParams = d->functionParams != nullptr;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
        e.kind = NvtxEvent::Pop;
        return e;
    default:
        break;
    }
    if (!hasParams) return e;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
        e = {NvtxEvent::Push, params<nvtxRangePushA_params>(d)->message, 0};
        break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
        e = {NvtxEvent::Push, ascii(params<nvtxRangePushEx_params>(d)->eventAttrib), 0};
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
        e = {NvtxEvent::Push, ascii(params<nvtxDomainRangePushEx_params>(d)->core.eventAttrib), 0};
        break;
    case CUPTI_CBID_NVTX_nvtxMarkA:
        e = {NvtxEvent::Mark, params<nvtxMarkA_params>(d)->message, 0};
        break;
    case CUPTI_CBID_NVTX_nvtxMarkEx:
        e = {NvtxEvent::Mark, ascii(params<nvtxMarkEx_params>(d)->eventAttrib), 0};
        break;
    case CUPTI_CBID_NVTX_nvtxDomainMarkEx:
        e = {NvtxEvent::Mark, ascii(params<nvtxDomainMarkEx_params>(d)->core.eventAttrib), 0};
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
        e = {NvtxEvent::Start, params<nvtxRangeStartA_params>(d)->message, 0};
        break;
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
        e = {NvtxEvent::Start, ascii(params<nvtxRangeStartEx_params>(d)->eventAttrib), 0};
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx:
        e = {NvtxEvent::Start, ascii(params<nvtxDomainRangeStartEx_params>(d)->core.eventAttrib),
             0};
        break;
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
        e = {NvtxEvent::End, nullptr, params<nvtxRangeEnd_params>(d)->id};
        break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
        e = {NvtxEvent::End, nullptr, params<nvtxDomainRangeEnd_params>(d)->core.id};
        break;
    default:
        break;
    }
    if (e.kind == NvtxEvent::Start) {
        if (!d->functionReturnValue) return NvtxEvent{}; // no id: its end could not be matched
        e.id = *static_cast<const nvtxRangeId_t*>(d->functionReturnValue);
    }
    return e;
}

} // namespace strata
