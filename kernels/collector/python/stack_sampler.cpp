#include "python/stack_sampler.h"

#include "collector_instance.h"
#include "io/strata/strata_trace_writer.h"
#include "process/process_info.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace strata::python {

StackSampler::StackSampler(FrameTable& frames, int hz, PyObject* threads)
    : frames_(frames), hz_(hz), threadsFn_(threads) {
    if (threadsFn_) api()->Py_IncRef(threadsFn_);
}

StackSampler::~StackSampler() {
    stop();
}

void StackSampler::start() {
    stop_.store(false);
    thread_ = std::thread([this] { loop(); });
}

void StackSampler::stop() {
    stop_.store(true);
    servedCv_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void StackSampler::restartInChild() {
    // The std::thread object describes the parent's thread: forgotten, never joined; its
    // pending call, if one was queued, went with the parent's interpreter state.
    new (&thread_) std::thread();
    new (&servedMutex_) std::mutex(); // the parent's sampler may have held it at the fork
    new (&servedCv_) std::condition_variable();
    queued_.store(false);
    tids_.clear();
    unresolved_.clear();
    topFrames_.clear();
    callsites_.clear();
    strings_.clear();
    start();
}

SampleStats StackSampler::stats() const {
    return {ticks_.load(), samples_.load(), late_.load(), filled_.load()};
}

namespace {
int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}
} // namespace

int StackSampler::pendingTick(void* p) {
    auto* s = static_cast<StackSampler*>(p);
    s->queued_.store(false);
    if (!s->stop_.load()) s->serve(s->seq_.load());
    return 0;
}

void StackSampler::serve(uint64_t seq) {
    if (seq <= served_ || !recording()) return;
    const int64_t late = monotonicNs() - dueNs_.load();
    const int64_t missed = std::max<int64_t>(0, late / periodNs_);
    tick(g_collector->writer, getpid(), uint32_t(std::min<int64_t>(missed, 1000)) + 1, periodNs_);
    if (missed) {
        late_.fetch_add(1, std::memory_order_relaxed);
        filled_.fetch_add(uint64_t(missed), std::memory_order_relaxed);
    }
    {
        std::lock_guard lock(servedMutex_);
        served_ = seq;
    }
    servedCv_.notify_one();
}

void StackSampler::loop() {
    const Api& a = *api();
    periodNs_ = 1'000'000'000 / hz_;
    int64_t due = monotonicNs();
    while (!stop_.load()) {
        due += periodNs_;
        const timespec until{time_t(due / 1'000'000'000), long(due % 1'000'000'000)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
        }
        if (stop_.load() || !recording()) break;
        dueNs_.store(due);
        const uint64_t seq = seq_.fetch_add(1) + 1;
        if (!queued_.exchange(true) && a.Py_AddPendingCall(pendingTick, this) != 0)
            queued_.store(false);
        bool served = false;
        {
            std::unique_lock lock(servedMutex_);
            served = servedCv_.wait_for(lock, std::chrono::nanoseconds(periodNs_ / 5),
                                        [&] { return served_ >= seq || stop_.load(); });
        }
        if (!served && !stop_.load()) {
            const int gil = a.PyGILState_Ensure();
            serve(seq);
            a.PyGILState_Release(gil);
        }
        // Ticks missed while the GIL was held were written with the late one: not made up.
        const int64_t now = monotonicNs();
        if (now > due + periodNs_) due += (now - due) / periodNs_ * periodNs_;
    }
}

uint32_t StackSampler::callsite(StrataTraceWriter& w, uint32_t parent, uint32_t frame) {
    const uint64_t key = uint64_t(parent) << 32 | frame;
    if (auto it = callsites_.find(key); it != callsites_.end()) return it->second;
    if (frame >= strings_.size()) strings_.resize(frame + 1, 0);
    if (!strings_[frame]) strings_[frame] = w.string(frames_.name(frame));
    const uint32_t id = uint32_t(callsites_.size() + 1);
    callsites_.emplace(key, id);
    w.callsite(id, parent, strings_[frame]);
    return id;
}

void StackSampler::resolveThreads(StrataTraceWriter& w, int64_t pid) {
    // The bootstrap's function: "FRAME TID NAME" lines (see the header).
    topFrames_.clear();
    const Api& a = *api();
    if (!threadsFn_) return;
    PyObject* text = a.PyObject_CallNoArgs(threadsFn_);
    if (!text) {
        a.PyErr_Clear();
        return;
    }
    const char* s = a.PyUnicode_AsUTF8(text);
    for (const char* p = s; p && *p;) {
        char* end = nullptr;
        const uintptr_t frame = std::strtoull(p, &end, 10);
        const int64_t tid = std::strtoll(end, &end, 10);
        while (*end == ' ') ++end;
        const char* eol = end;
        while (*eol && *eol != '\n') ++eol;
        if (tid > 0) {
            topFrames_[frame] = tid;
            w.thread(pid, tid, std::string(end, size_t(eol - end)));
        }
        p = *eol ? eol + 1 : eol;
    }
    if (!s) a.PyErr_Clear();
    a.Py_DecRef(text);
}

int64_t StackSampler::threadOf(PyThreadState* t, PyFrameObject* top, StrataTraceWriter& w,
                               int64_t pid) {
    const uint64_t id = api()->PyThreadState_GetID(t);
    if (auto it = tids_.find(id); it != tids_.end()) return it->second;
    const uint64_t tick = ticks_.load(std::memory_order_relaxed);
    if (auto it = unresolved_.find(id); it != unresolved_.end() && tick < it->second + 1000)
        return 0;           // asked threading lately: not again before 1000 ticks
    resolveThreads(w, pid); // a thread not seen before: ask threading (its name too)
    // The thread serving the tick (the main thread, in its pending call) is this one; the
    // resolver's own frame is its top frame now, so it is known by its id instead.
    int64_t tid = 0;
    if (t == api()->PyThreadState_Get()) {
        tid = currentThreadId();
    } else if (auto found = topFrames_.find(reinterpret_cast<uintptr_t>(top));
               found != topFrames_.end()) {
        tid = found->second;
    }
    if (!tid) {
        // A thread threading does not know (started by _thread or C code): unsampled.
        unresolved_[id] = tick;
        return 0;
    }
    unresolved_.erase(id);
    tids_.emplace(id, tid);
    return tid;
}

void StackSampler::tick(StrataTraceWriter& w, int64_t pid, uint32_t copies, int64_t period) {
    const Api& a = *api();
    const uint64_t ts = clockNs();
    ticks_.fetch_add(1, std::memory_order_relaxed);
    for (PyThreadState* t = a.PyInterpreterState_ThreadHead(a.PyInterpreterState_Main()); t;
         t = a.PyThreadState_Next(t)) {
        // The sampler's own thread state (PyGILState_Ensure's) has no frame, like any thread in
        // C code alone.
        PyFrameObject* f = a.PyThreadState_GetFrame(t);
        if (!f) continue;
        const int64_t tid = threadOf(t, f, w, pid);
        stackScratch_.clear();
        while (f) {
            if (tid) stackScratch_.push_back(frames_.ofFrame(f));
            PyFrameObject* back = a.PyFrame_GetBack(f);
            a.Py_DecRef(reinterpret_cast<PyObject*>(f));
            f = back;
        }
        if (!tid) continue;
        uint32_t site = 0;
        for (auto it = stackScratch_.rbegin(); it != stackScratch_.rend(); ++it)
            site = callsite(w, site, *it);
        for (uint32_t k = copies; k-- > 0;)
            w.stackSample(pid, tid, TimeNs(ts - k * uint64_t(period)), site, 0);
        samples_.fetch_add(copies, std::memory_order_relaxed);
    }
}

} // namespace strata::python
