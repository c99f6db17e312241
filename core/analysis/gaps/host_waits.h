#pragma once
// What a host thread waits in, beyond the calls whose name says they block (frame_roles.h:
// isBlockingCallName): an asynchronous copy to or from pageable host memory, which the driver
// stages through a pinned buffer and so runs synchronously with the host like cudaMemcpy (the
// CUDA runtime's "API synchronization behavior"), and a CPU-side wait (c10d::wait, a Python
// threading wait). Issue 44.
#include "model/trace.h"

#include <string_view>

namespace strata {

// cudaMemcpyAsync, cudaMemcpy2DAsync, cudaMemcpyPeerAsync, hipMemcpyAsync, cuMemcpyHtoDAsync_v2,
// ... (an API call that copies and whose name says Async).
bool isAsyncCopyName(std::string_view name);
// An asynchronous copy call whose copy (the GPU op with its correlation id) reads or writes
// pageable host memory: it blocked the calling thread like a synchronous copy.
bool isPageableCopyCall(const Trace& trace, SliceRef call);
// A CPU op or Python frame that waits for other work: "c10d::wait", "aten::wait", a Python
// frame of a function named wait ("threading.py(359): wait").
bool isWaitName(std::string_view name);

} // namespace strata
