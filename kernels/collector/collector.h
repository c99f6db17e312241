#pragma once
// The injected collector: one per process, created by InitializeInjection (CUDA driver) or
// InitializeInjectionNvtx2 (NVTX), never destroyed (atexit handlers and forked children may still
// look at it). Subscribes to CUPTI, enables activity kinds, hands CUPTI pooled buffers, parses
// completed buffers into the .strata writer, flushes every STRATA_FLUSH_MS on its own thread,
// and flushes/closes on exit, SIGINT/SIGTERM and (best effort) crash signals. Nothing here is
// fatal to the target: every CUPTI error becomes a warning in the trace.
#include <cstdint>

namespace strata {

enum class CollectorState : int {
    NotStarted = 0,
    Recording = 1,
    Disabled = 2,    // CUPTI unavailable or taken by another tool; the trace says why
    ForkedChild = 3, // a child forked without exec: CUPTI and the writer are left alone
    ShutDown = 4,
};

// Who started the collector: the CUDA driver at cuInit (InitializeInjection), NVTX's loader,
// the Python bootstrap (kernels/collector/python) before the program's first line, or the
// library's own constructor when it is loaded with STRATA_CPU_SAMPLE set (LD_PRELOAD: native
// stacks from the program's start). CUPTI is subscribed by the first two only: a program that
// never touches CUDA records its Python or native stacks without loading CUDA.
enum class StartedBy { Cuda, Nvtx, Python, Load };

// Entry points (idempotent).
void collectorStart(StartedBy by);
CollectorState collectorState();
// In a child forked from a recording process (the Python bootstrap's after-fork hook): a
// recording of its own, in its own file (the output template's {pid}), without CUPTI. Returns
// true if it records.
bool collectorRestartInForkedChild();
// Synchronous flush: CUPTI buffers (FlushAll(0)) -> writer chunk -> disk. Returns false if not
// recording.
bool collectorFlushNow();
// Normal-exit path (also registered with atexit): forced CUPTI flush, stats, close the file.
void collectorShutdown();
// Adds a warning to the trace (ignored when not recording).
void collectorWarning(const char* text);

} // namespace strata
