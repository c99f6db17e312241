#include "util/thread_priority.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace strata {

namespace {
constexpr int kBackgroundNice = 5; // CFS weight 335 against the GUI thread's 1024
}

void lowerThreadPriority() {
#ifdef __linux__
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    if (::getpriority(PRIO_PROCESS, tid) < kBackgroundNice)
        (void)::setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

} // namespace strata
