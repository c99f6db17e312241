#include "process/process_hooks.h"

#include "collector_instance.h"
#include "process/process_info.h"
#include "process/signal_chain.h"

#include <atomic>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

namespace strata {

namespace {

void forkPrepare() {
    Collector* c = g_collector;
    if (!c || c->owner != getpid()) return;
    c->flushMutex.lock();
    c->parserMutex.lock();
}
void forkParent() {
    Collector* c = g_collector;
    if (!c || c->owner != getpid()) return;
    c->parserMutex.unlock();
    c->flushMutex.unlock();
}
void forkChild() {
    // The child inherited CUPTI's and our memory but none of the threads: touching CUPTI or the
    // writer here could deadlock or corrupt the parent's file. Leave both alone for good; the
    // mutexes stay locked and are never used again in this process.
    if (!g_collector) return;
    g_collector->state.store(CollectorState::ForkedChild);
}

// Waits (async-signal-safe calls only) until `done` differs from `before`, for at most `ms`.
bool waitChange(const std::atomic<int>& done, int before, int ms) {
    for (int i = 0; i < ms && done.load() == before; ++i) {
        timespec ts{0, 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
    return done.load() != before;
}

// Runs inside the signal handler: async-signal-safe calls only.
void onSignal(int sig, bool willDie) {
    if (!recording()) return;
    Collector& c = *g_collector;
    c.lastSignal.store(sig); // for the Run record written when the launcher is gone
    if (willDie) c.fatalSignal.store(sig);
    if (currentThreadId() == c.flusherTid.load()) return; // the flush thread itself crashed
    // The flush thread asks CUPTI for its buffers and closes the file. CUPTI's flush can need a
    // lock the interrupted thread holds (it was inside CUPTI, or in our completion callback):
    // then the flush thread cannot finish while this handler waits, so the wait is short.
    const int served = c.signalServed.load();
    c.signalRequest.store(willDie ? 2 : 1);
    sem_post(&c.wake);
    if (waitChange(c.signalServed, served, 100) || !willDie) return;
    // The process is about to end: the closer writes what is already buffered and the
    // end-of-file record without calling into CUPTI, waiting for no lock longer than ~80 ms.
    const int closed = c.emergencyServed.load();
    sem_post(&c.emergencyWake);
    waitChange(c.emergencyServed, closed, 100);
}

} // namespace

void atExit() {
    collectorShutdown();
}

void installForkAndSignalHooks() {
    // Once per process image: a forked child whose Python restarts a collector of its own
    // (kernels/collector/python) has them from its parent already.
    static std::atomic<bool> installed{false};
    if (installed.exchange(true)) return;
    pthread_atfork(forkPrepare, forkParent, forkChild);
    installSignalChain(onSignal);
}

} // namespace strata
