#pragma once
// --python calls: every Python call and return, and every C function Python calls, of every
// thread, as python_function slices on the thread's track. CPython's profile hook (the C-level
// one cProfile uses) writes an event per call and return into the thread's own log
// (thread_log.h) without a lock; the flush thread pairs them into slices (drain()). Frames a
// thread was already inside when it was first seen (the main thread's bootstrap, threads started
// before tracing, a forked child's stack) are opened at that moment, so a return always finds
// its call and a slice never ends before its child.
#include "io/strata/strata_slice_rows.h"
#include "python/python_api.h"
#include "python/python_frames.h"
#include "python/thread_log.h"
#include "python/tick_clock.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace strata {
class StrataTraceWriter;
}

namespace strata::python {

struct CallStats {
    uint64_t slices = 0;
    uint64_t unmatched = 0; // returns whose call was never seen (a frame entered before tracing)
    uint64_t threads = 0;
};

class CallRecorder {
public:
    explicit CallRecorder(FrameTable& frames);
    // With the GIL held: the hook on every running thread (3.12+: PyEval_SetProfileAllThreads;
    // 3.10/3.11: each thread through _PyEval_SetProfile); threads started later set it through
    // hookCurrentThread(). Frames open now start now.
    void install();
    // With the GIL held, on a thread that started after install() (the bootstrap's
    // threading.setprofile hook, on the thread's first call).
    void hookCurrentThread();
    // The flush thread: the events logged since the last drain as slices; `final`: the frames
    // still open end at `endNs` (the run's end), threads that ended are closed at their last
    // event either way.
    // A thread seen for the first time gets its name from the system unless `named(tid)` (the
    // bootstrap gave threading's name already).
    void drain(StrataTraceWriter& writer, int64_t pid, bool final, uint64_t endNs,
               bool (*named)(int64_t tid));
    // A forked child (one thread, the GIL held): the parent's threads are forgotten; the
    // current thread's stack reopens now.
    void restartInChild();
    CallStats stats() const;

private:
    struct Open {
        uint64_t start; // ns
        uint32_t frame;
    };
    struct ThreadState {
        std::unique_ptr<ThreadLog> log;
        std::atomic<bool> ended{false};
        std::vector<Open> stack; // flush thread only
        uint64_t lastTs = 0;     // ns
        bool announced = false;
        bool done = false; // ended and drained: removed
    };
    static int hook(PyObject*, PyFrameObject* frame, int what, PyObject* arg);
    ThreadLog* threadStarting(PyFrameObject* frame, int what);
    void closeOpen(StrataTraceWriter& w, ThreadState& t, uint64_t endNs);
    // A thread's slices of a drain gather in rows_ and reach the writer at once, sorted.
    void emit(StrataTraceWriter& w, uint64_t start, uint64_t end, uint32_t frame);
    void writeRows(StrataTraceWriter& w, int64_t pid, int64_t tid);
    std::vector<format::CpuSliceRow> rows_; // flush thread
    uint32_t stringOf(StrataTraceWriter& w, uint32_t frame);

    FrameTable& frames_;
    TickClock clock_;
    uint64_t startTicks_ = 0;
    std::vector<uint64_t> existing_;      // PyThreadState ids of the threads there at startTicks_
    std::mutex drainMutex_;               // the flush thread's, or the closer's on a fatal signal
    std::atomic<uint32_t> generation_{1}; // bumped in a forked child: every thread re-registers
    std::mutex threadsMutex_;
    std::vector<std::unique_ptr<ThreadState>> threads_;
    std::vector<uint32_t> strings_; // frame id -> writer string id (flush thread)
    std::atomic<uint64_t> slices_{0}, unmatched_{0}, threadCount_{0};
};

} // namespace strata::python
