#pragma once
// Build-time helper: memory a loader is about to write, backed by the kernel in one call
// (madvise MADV_POPULATE_WRITE) instead of one page fault per page on first touch. On the
// reference VM that backs 128 MB in 50 ms instead of 70; see docs/performance.md.
#include <cstddef>

namespace strata {

// Backs the pages lying wholly inside [p, p + bytes) (pages partly outside are left to fault as
// usual); no effect where unsupported.
void populateForWrite(void* p, size_t bytes);

} // namespace strata
