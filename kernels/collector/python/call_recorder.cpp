#include "python/call_recorder.h"

#include "collector_instance.h"
#include "io/strata/strata_trace_writer.h"
#include "model/slice_kind.h"
#include "process/process_info.h"

#include <algorithm>
#include <pthread.h>

namespace strata::python {

namespace {

CallRecorder* g_recorder = nullptr;

// The calling thread's log, and the recorder generation it was registered in: plain data in
// the initial-exec TLS model, one load on every call.
struct ThreadSlot {
    ThreadLog* log;
    uint32_t generation;
};
__attribute__((tls_model("initial-exec"))) thread_local ThreadSlot t_slot{nullptr, 0};

// A thread's end (the key's destructor): its state's `ended` flag set.
pthread_key_t g_endKey;
pthread_once_t g_endKeyOnce = PTHREAD_ONCE_INIT;
void makeEndKey() {
    pthread_key_create(&g_endKey, [](void* ended) {
        static_cast<std::atomic<bool>*>(ended)->store(true, std::memory_order_release);
    });
}

} // namespace

CallRecorder::CallRecorder(FrameTable& frames) : frames_(frames) {}

int CallRecorder::hook(PyObject*, PyFrameObject* frame, int what, PyObject* arg) {
    CallRecorder& r = *g_recorder;
    ThreadLog* log = t_slot.log;
    if (!log || t_slot.generation != r.generation_.load(std::memory_order_relaxed))
        log = r.threadStarting(frame, what);
    const uint64_t ts = TickClock::now();
    switch (what) {
    case kCall:
        log->add(ts, r.frames_.ofFrame(frame), kEnter);
        break;
    case kReturn:
        log->add(ts, r.frames_.ofFrame(frame), kLeave);
        break;
    case kCCall:
        log->add(ts, r.frames_.ofCFunction(arg), kEnter);
        break;
    case kCReturn:
    case kCException:
        log->add(ts, r.frames_.ofCFunction(arg), kLeave);
        break;
    default:
        break;
    }
    return 0;
}

ThreadLog* CallRecorder::threadStarting(PyFrameObject* frame, int what) {
    auto state = std::make_unique<ThreadState>();
    state->log = std::make_unique<ThreadLog>(currentThreadId());
    ThreadLog* log = state->log.get();
    // The frames this thread is already inside: outermost first, opened at the start of
    // tracing (or at this first event, for a thread that began later).
    const Api& a = *api();
    std::vector<uint32_t> open;
    PyFrameObject* f = frame;
    if (f && what == kCall)
        f = a.PyFrame_GetBack(f); // the called frame opens by its own event
    else if (f)
        a.Py_IncRef(reinterpret_cast<PyObject*>(f));
    while (f) {
        open.push_back(frames_.ofFrame(f));
        PyFrameObject* back = a.PyFrame_GetBack(f);
        a.Py_DecRef(reinterpret_cast<PyObject*>(f));
        f = back;
    }
    // A thread that was there when tracing began entered them before it; one that began
    // later (3.10/3.11: its first frames run before its hook is set) entered them just now.
    const uint64_t id = a.PyThreadState_GetID(a.PyThreadState_Get());
    const bool before = std::find(existing_.begin(), existing_.end(), id) != existing_.end();
    const uint64_t opened = before ? startTicks_ : TickClock::now();
    for (auto it = open.rbegin(); it != open.rend(); ++it) log->add(opened, *it, kEnter);
    t_slot.log = log;
    t_slot.generation = generation_.load(std::memory_order_relaxed);
    pthread_once(&g_endKeyOnce, makeEndKey);
    pthread_setspecific(g_endKey, &state->ended);
    threadCount_.fetch_add(1);
    std::lock_guard lock(threadsMutex_);
    threads_.push_back(std::move(state));
    return log;
}

void CallRecorder::install() {
    g_recorder = this;
    clock_.start();
    startTicks_ = TickClock::now();
    const Api& a = *api();
    for (PyThreadState* t = a.PyInterpreterState_ThreadHead(a.PyInterpreterState_Main()); t;
         t = a.PyThreadState_Next(t))
        existing_.push_back(a.PyThreadState_GetID(t));
    if (a.PyEval_SetProfileAllThreads) {
        a.PyEval_SetProfileAllThreads(hook, nullptr);
        return;
    }
    for (PyThreadState* t = a.PyInterpreterState_ThreadHead(a.PyInterpreterState_Main()); t;
         t = a.PyThreadState_Next(t))
        a.SetProfileOf(t, hook, nullptr);
}

void CallRecorder::hookCurrentThread() {
    api()->PyEval_SetProfile(hook, nullptr);
}

void CallRecorder::restartInChild() {
    // The parent's threads and logs belong to the parent's flush thread: dropped here (their
    // memory is the child's copy, never read again).
    for (auto& t : threads_) (void)t.release();
    threads_.clear();
    strings_.clear();
    startTicks_ = TickClock::now();
    existing_ = {api()->PyThreadState_GetID(api()->PyThreadState_Get())};
    t_slot = ThreadSlot{nullptr, 0};
    pthread_once(&g_endKeyOnce, makeEndKey);
    pthread_setspecific(g_endKey, nullptr);
    generation_.fetch_add(1);
}

uint32_t CallRecorder::stringOf(StrataTraceWriter& w, uint32_t frame) {
    if (frame >= strings_.size()) strings_.resize(frame + 1, 0);
    uint32_t& s = strings_[frame];
    if (!s) s = w.string(frames_.name(frame));
    return s;
}

void CallRecorder::emit(StrataTraceWriter& w, uint64_t start, uint64_t end, uint32_t frame) {
    // rdtsc is not serializing: two reads a few instructions apart may come out swapped.
    end = std::max(end, start);
    rows_.push_back(format::CpuSliceRow{TimeNs(start), TimeNs(end), stringOf(w, frame),
                                        uint8_t(SliceKind::PythonFunction), -1, 0});
}

void CallRecorder::writeRows(StrataTraceWriter& w, int64_t pid, int64_t tid) {
    // In the order a reader nests them (start, then the longer first): a thread's slices come
    // as one sorted run a flush, which the reader merges instead of sorting (slice_nester.cpp).
    std::stable_sort(rows_.begin(), rows_.end(),
                     [](const format::CpuSliceRow& a, const format::CpuSliceRow& b) {
                         if (a.start != b.start) return a.start < b.start;
                         return a.end - a.start > b.end - b.start;
                     });
    w.cpuSlices(pid, tid, rows_.data(), rows_.size());
    slices_.fetch_add(rows_.size(), std::memory_order_relaxed);
    rows_.clear();
}

void CallRecorder::closeOpen(StrataTraceWriter& w, ThreadState& t, uint64_t endNs) {
    while (!t.stack.empty()) {
        const Open o = t.stack.back();
        t.stack.pop_back();
        emit(w, o.start, std::max(endNs, o.start), o.frame);
    }
}

void CallRecorder::drain(StrataTraceWriter& w, int64_t pid, bool final, uint64_t endNs,
                         bool (*named)(int64_t)) {
    // One consumer at a time; the closer (a fatal signal) does not wait for the flush thread.
    std::unique_lock drainLock(drainMutex_, std::defer_lock);
    if (!final)
        drainLock.lock();
    else if (!drainLock.try_lock())
        return;
    clock_.anchor();
    std::vector<ThreadState*> threads;
    {
        std::lock_guard lock(threadsMutex_);
        for (auto& t : threads_) threads.push_back(t.get());
    }
    for (ThreadState* t : threads) {
        // Read before the drain: once it is true, every event of the thread is published.
        const bool ended = t->ended.load(std::memory_order_acquire);
        const int64_t tid = t->log->tid;
        if (!t->announced) {
            if (!named(tid)) w.thread(pid, tid, threadName(tid));
            t->announced = true;
        }
        t->log->drain([&](const CallEvent& e) {
            const uint64_t ts = clock_.ns(e.ts);
            t->lastTs = ts;
            if (e.what == kEnter) {
                t->stack.push_back({ts, e.frame});
                return;
            }
            // Its call: the innermost open frame of that function. Frames above it (a call
            // whose return was never reported) end with it.
            auto it = std::find_if(t->stack.rbegin(), t->stack.rend(),
                                   [&](const Open& o) { return o.frame == e.frame; });
            if (it == t->stack.rend()) {
                unmatched_.fetch_add(1, std::memory_order_relaxed);
                return;
            }
            const size_t keep = size_t(t->stack.rend() - it) - 1;
            while (t->stack.size() > keep) {
                const Open o = t->stack.back();
                t->stack.pop_back();
                emit(w, o.start, ts, o.frame);
            }
        });
        if (ended) {
            closeOpen(w, *t, t->lastTs);
            t->done = true;
        } else if (final) {
            closeOpen(w, *t, std::max(endNs, t->lastTs));
        }
        writeRows(w, pid, tid);
    }
    std::lock_guard lock(threadsMutex_);
    threads_.erase(std::remove_if(threads_.begin(), threads_.end(),
                                  [](const std::unique_ptr<ThreadState>& t) { return t->done; }),
                   threads_.end());
}

CallStats CallRecorder::stats() const {
    return {slices_.load(), unmatched_.load(), threadCount_.load()};
}

} // namespace strata::python
