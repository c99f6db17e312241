#include "analysis/gaps/host_waits.h"

namespace strata {

bool isAsyncCopyName(std::string_view n) {
    const bool api = n.starts_with("cuda") || n.starts_with("hip") || n.starts_with("cu");
    return api && n.find("Memcpy") != std::string_view::npos &&
           n.find("Async") != std::string_view::npos;
}

bool isPageableCopyCall(const Trace& t, SliceRef call) {
    if (!call.valid() || !isLaunchApiKind(t.kind(call)) || !isAsyncCopyName(t.name(call)))
        return false;
    const SliceExtra* e = t.extra(call);
    if (!e || e->correlation < 0) return false;
    for (SliceRef r : t.byCorrelation(e->correlation)) {
        if (t.kind(r) != SliceKind::Memcpy) continue;
        const GpuActivity* g = t.gpu(r);
        if (g && (g->srcMemory == 1 || g->dstMemory == 1)) return true; // CUPTI: 1 = pageable
    }
    return false;
}

bool isWaitName(std::string_view n) {
    return n.ends_with("::wait") || n.ends_with("): wait") || n == "wait";
}

} // namespace strata
