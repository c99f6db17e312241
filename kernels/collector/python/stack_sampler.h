#pragma once
// --python sample=HZ: the Python stack of every thread, HZ times a second, as stack samples
// (StrataTraceWriter::callsite / stackSample). A thread of the collector's own keeps the time;
// at each tick it asks the main thread to take the samples (Py_AddPendingCall: run at the
// interpreter's next check, with the GIL, without a thread switch), and takes them itself,
// GIL and all (PyGILState_Ensure), when the main thread has not within a fifth of a period
// (it is blocked in C code, the GIL free or held by another thread). Either way every thread's
// frames are walked through the C API. A tick served later than a period is counted, and the
// stacks it sees stand for the ticks it missed as well (written once per missed tick, at their
// times), so a thread that holds the GIL keeps the share of samples its time deserves.
// The callsites (frame, caller's callsite) are interned here, so a stack costs one id per sample.
#include "python/python_api.h"
#include "python/python_frames.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace strata {
class StrataTraceWriter;
}

namespace strata::python {

struct SampleStats {
    uint64_t ticks = 0;   // GIL taken
    uint64_t samples = 0; // thread stacks written
    uint64_t late = 0;    // ticks taken more than a period after they were due
    uint64_t filled = 0;  // samples standing for the ticks those missed
};

class StackSampler {
public:
    // `threads`: the bootstrap's function that names Python threads (a str of "FRAME TID NAME"
    // lines: id() of each thread's current frame, its native id and threading's name); a new
    // reference is kept.
    StackSampler(FrameTable& frames, int hz, PyObject* threads);
    ~StackSampler();
    // Starts the sampling thread (any thread; it takes the GIL itself).
    void start();
    // Stops and joins it. Must be called without the GIL (the sampler may be waiting for it).
    void stop();
    // A forked child: the sampling thread was not copied; the tables were. Start again.
    void restartInChild();
    SampleStats stats() const;
    int hz() const { return hz_; }

private:
    void loop();
    static int pendingTick(void* sampler);
    // With the GIL: the samples of tick `seq` unless it was served already.
    void serve(uint64_t seq);
    void tick(StrataTraceWriter& w, int64_t pid, uint32_t copies, int64_t period);
    int64_t threadOf(PyThreadState* t, PyFrameObject* top, StrataTraceWriter& w, int64_t pid);
    void resolveThreads(StrataTraceWriter& w, int64_t pid);
    uint32_t callsite(StrataTraceWriter& w, uint32_t parent, uint32_t frame);

    FrameTable& frames_;
    const int hz_;
    PyObject* threadsFn_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    int64_t periodNs_ = 0;
    std::atomic<uint64_t> seq_{0};    // the tick due
    std::atomic<int64_t> dueNs_{0};   // when (CLOCK_MONOTONIC)
    uint64_t served_ = 0;             // the last tick served (with the GIL)
    std::atomic<bool> queued_{false}; // a pending call is waiting for the main thread
    std::mutex servedMutex_;
    std::condition_variable servedCv_;
    std::unordered_map<uint64_t, int64_t> tids_;        // PyThreadState id -> native tid
    std::unordered_map<uint64_t, uint64_t> unresolved_; // PyThreadState id -> tick last asked
    std::unordered_map<uintptr_t, int64_t> topFrames_;  // a resolve()'s frame address -> tid
    std::unordered_map<uint64_t, uint32_t> callsites_;  // (parent << 32 | frame) -> id
    std::vector<uint32_t> strings_;                     // frame id -> writer string id
    std::vector<uint32_t> stackScratch_;
    std::atomic<uint64_t> ticks_{0}, samples_{0}, late_{0}, filled_{0};
};

} // namespace strata::python
