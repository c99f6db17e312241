#pragma once
// The native stack of the interrupted thread, from its signal handler: libunwind's local
// unwinder (Debian's libunwind8), loaded with dlopen(RTLD_LOCAL) only when native sampling is
// asked for, so its _Unwind_* symbols never take the place of the target's own (C++ exceptions
// stay libgcc's) and a machine without it records the rest of the run.
#include <cstdint>
#include <string>

namespace strata::native {

class Unwinder {
public:
    // Loads libunwind and unwinds once from here, so that its lazy set-up (caches, its own
    // locks) happens now and not in a signal handler. False with `why` when it cannot.
    bool load(std::string* why);
    // In a signal handler: the return addresses of the thread `ucontext` (the handler's third
    // argument) interrupted, innermost first, at most `max`; their number.
    int backtrace(void* ucontext, uintptr_t* out, int max) const;

private:
    using InitLocal2 = int (*)(void* cursor, void* context, int flag);
    using Step = int (*)(void* cursor);
    using GetReg = int (*)(void* cursor, int reg, uintptr_t* value);
    InitLocal2 initLocal2_ = nullptr;
    Step step_ = nullptr;
    GetReg getReg_ = nullptr;
};

} // namespace strata::native
