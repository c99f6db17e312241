#pragma once
// Signal handlers that flush the trace before the target's own handling runs: SIGINT and SIGTERM
// (the file is closed when the signal is going to kill the process, flushed otherwise) and, best
// effort, crash signals (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL). The previous disposition is
// always honoured afterwards: a handler function is called, SIG_IGN ignores, SIG_DFL re-raises.
namespace strata {

// flush(sig, willDie) runs inside the signal handler: it may only use async-signal-safe calls
// (the collector posts a semaphore and waits, bounded, for its flush thread).
using SignalFlush = void (*)(int sig, bool willDie);
void installSignalChain(SignalFlush flush);

} // namespace strata
