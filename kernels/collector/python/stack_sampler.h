#pragma once
// --python sample=HZ: the Python stack of every thread, HZ times a second, as stack samples
// (StrataTraceWriter::callsite / stackSample). A thread of the collector's own keeps the time:
// every period, one sample per Python thread.
//   - The main thread, where most programs spend their time, notes its own stack while it runs:
//     a timer on its CPU clock (cpu_tick_timer.h) has it do so once per period of CPU, where it
//     is, whatever the sampler thread's scheduling. At each tick the sampler thread reads how
//     much CPU the main thread used since the last one: those periods get the stack it noted,
//     written without the GIL. A main thread busy in Python with no other thread costs the
//     sampler nothing more.
//   - The periods it did not run (asleep, waiting) and every other thread need the GIL: the
//     sampler asks the main thread to take them (Py_AddPendingCall: at its next check, without a
//     thread switch) and takes the GIL itself (PyGILState_Ensure) when the main thread has not
//     within a fifth of a period: it is blocked, and the GIL is free or another thread's.
// A tick taken late (the GIL held, the sampler thread not scheduled) writes a sample for each
// period it covers, at their times, so every thread keeps the share its time deserves.
#include "python/cpu_tick_timer.h"
#include "python/python_api.h"
#include "python/python_frames.h"
#include "python/stack_walker.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace strata {
class StrataTraceWriter;
}

namespace strata::python {

struct SampleStats {
    uint64_t ticks = 0;    // the sampler thread's
    uint64_t samples = 0;  // thread stacks written
    uint64_t late = 0;     // ticks taken more than a period after they were due
    uint64_t filled = 0;   // samples standing for the periods those covered
    uint64_t cpuTicks = 0; // the main thread's own notes (its CPU timer)
    uint64_t apiCalls = 0; // stacks taken at CUDA calls
};

class StackSampler {
public:
    // `threads`: the bootstrap's function naming threads (stack_walker.h).
    StackSampler(FrameTable& frames, int hz, PyObject* threads);
    ~StackSampler();
    // Starts the sampling thread (any thread; it takes the GIL itself).
    void start();
    // Stops and joins it. Must be called without the GIL (the sampler may be waiting for it).
    void stop();
    // A forked child: the sampling thread and the timer were not copied; the tables were.
    void restartInChild();
    SampleStats stats() const;
    // On the main thread, with the GIL: its CPU-time ticks, which run cpuTick() through the
    // Python handler of signal `simulated` (cpu_tick_timer.h). False with `why` if not.
    bool startCpuTicks(int simulated, int kernelSignal, std::string* why);
    // The Python handler for that signal: a builtin that calls cpuTick() (a new reference).
    PyObject* cpuTickHandler();
    // With the GIL, on the main thread: the stack it is in, noted for the periods it runs.
    void cpuTick();
    // With the GIL, on a thread calling CUDA: the stack it calls from, as an ApiCall sample.
    void apiCallStack();

private:
    // What the GIL-holding part of a tick writes: the main thread's last `mainCopies` periods
    // and every other thread's `otherCopies`, the latest at `ts`.
    struct Request {
        uint64_t seq = 0;
        uint32_t mainCopies = 0, otherCopies = 0;
        uint64_t ts = 0;
    };
    void loop();
    static int pendingTick(void* sampler);
    void serve(uint64_t seq); // with the GIL
    void write(StrataTraceWriter& w, int64_t tid, uint32_t site, uint32_t copies, uint64_t ts);

    StackWalker walker_;
    int64_t periodNs_ = 0;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::mutex requestMutex_; // request_ and served_
    std::condition_variable servedCv_;
    Request request_;
    uint64_t served_ = 0;
    std::atomic<bool> queued_{false}; // a pending call is waiting for the main thread
    CpuTickTimer cpuTimer_;
    int simulatedSignal_ = 0, kernelSignal_ = 0; // for a forked child's own timer
    unsigned long mainIdent_ = 0; // threading's ident of the main thread (its CPU ticks)
    int64_t mainTid_ = 0;
    int64_t lastWallCpu_ = 0; // the main thread's CPU at the sampler's last tick
    std::atomic<uint32_t> busySite_{0};
    uint64_t lastNotes_ = 0,
             busyWithoutNote_ = 0;   // the sampler thread's // the stack the main thread last noted
    std::atomic<int> othersSeen_{1}; // threads but the main one with a frame, last time
    std::atomic<uint64_t> ticks_{0}, samples_{0}, late_{0}, filled_{0}, cpuTicks_{0};
    std::atomic<uint64_t> apiCalls_{0};
};

} // namespace strata::python
