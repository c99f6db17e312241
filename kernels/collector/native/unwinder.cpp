#include "native/unwinder.h"

#if STRATA_NATIVE_SAMPLING
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <ucontext.h>
#endif

namespace strata::native {

#if STRATA_NATIVE_SAMPLING

namespace {

// libunwind's local-only entry points are macros for architecture-prefixed names
// (unw_step -> _ULx86_64_step): the names dlsym must look up.
#define STRATA_UNW_NAME2(x) #x
#define STRATA_UNW_NAME(x) STRATA_UNW_NAME2(x)

static_assert(sizeof(unw_word_t) == sizeof(uintptr_t));

} // namespace

bool Unwinder::load(std::string* why) {
    // RTLD_NOW: nothing of it is bound lazily later, inside a signal handler.
    void* lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        *why = "libunwind.so.8 not found (Debian: libunwind8)";
        return false;
    }
    initLocal2_ = reinterpret_cast<InitLocal2>(dlsym(lib, STRATA_UNW_NAME(unw_init_local2)));
    step_ = reinterpret_cast<Step>(dlsym(lib, STRATA_UNW_NAME(unw_step)));
    getReg_ = reinterpret_cast<GetReg>(dlsym(lib, STRATA_UNW_NAME(unw_get_reg)));
    if (!initLocal2_ || !step_ || !getReg_) {
        *why = "libunwind.so.8 lacks unw_init_local2 (libunwind 1.3 or later is needed)";
        return false;
    }
    ucontext_t here{};
    if (getcontext(&here) != 0) {
        *why = "getcontext failed";
        return false;
    }
    unw_cursor_t cursor;
    if (initLocal2_(&cursor, &here, 0) != 0) {
        *why = "libunwind cannot unwind this process";
        return false;
    }
    uintptr_t ip = 0;
    for (int n = 0; n < 64; ++n)
        if (getReg_(&cursor, UNW_REG_IP, &ip) != 0 || step_(&cursor) <= 0) break;
    return true;
}

int Unwinder::backtrace(void* ucontext, uintptr_t* out, int max) const {
    unw_cursor_t cursor;
    // On x86-64 and aarch64 libunwind's context is the kernel's ucontext_t.
    if (initLocal2_(&cursor, ucontext, UNW_INIT_SIGNAL_FRAME) != 0) return 0;
    int n = 0;
    while (n < max) {
        uintptr_t ip = 0;
        if (getReg_(&cursor, UNW_REG_IP, &ip) != 0 || ip == 0) break;
        out[n++] = ip;
        if (step_(&cursor) <= 0) break;
    }
    return n;
}

#else // built without libunwind's headers

bool Unwinder::load(std::string* why) {
    *why = "this collector was built without libunwind's headers (libunwind-dev)";
    return false;
}

int Unwinder::backtrace(void*, uintptr_t*, int) const {
    return 0;
}

#endif

} // namespace strata::native
