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

// Entry points (idempotent). cudaInitialized: called by the CUDA driver at cuInit.
void collectorStart(bool cudaInitialized);
CollectorState collectorState();
// Synchronous flush: CUPTI buffers (FlushAll(0)) -> writer chunk -> disk. Returns false if not
// recording.
bool collectorFlushNow();
// Normal-exit path (also registered with atexit): forced CUPTI flush, stats, close the file.
void collectorShutdown();
// Adds a warning to the trace (ignored when not recording).
void collectorWarning(const char* text);

} // namespace strata
