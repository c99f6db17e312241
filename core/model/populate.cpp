#include "model/populate.h"

#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace strata {

void WriteRanges::populate(size_t part, size_t parts) const {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    for (const Range& r : ranges_) {
        const auto base = reinterpret_cast<uintptr_t>(r.p);
        const uintptr_t lo = (base + r.bytes / parts * part + page - 1) / page * page;
        const uintptr_t hi =
            (part + 1 == parts ? base + r.bytes : base + r.bytes / parts * (part + 1)) / page *
            page;
        if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_POPULATE_WRITE);
    }
#else
    (void)part;
    (void)parts;
#endif
}

} // namespace strata
