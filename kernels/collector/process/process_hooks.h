#pragma once
// The collector's hooks into its process's life: at exit (close the trace), around fork (no
// chunk half-written in the child; the child leaves CUPTI and the writer alone) and on signals
// (flush, or close when the signal ends the process; see signal_chain.h and docs/recording.md).
namespace strata {

// Registered with std::atexit: collectorShutdown().
void atExit();
// pthread_atfork handlers and the signal chain's flush, installed once recording has started.
void installForkAndSignalHooks();

} // namespace strata
