#include "python/stack_sampler.h"

#include "collector_instance.h"
#include "io/strata/strata_trace_writer.h"

#include <algorithm>
#include <cerrno>
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
    if (thread_.joinable()) thread_.join();
}

void StackSampler::restartInChild() {
    // The std::thread object describes the parent's thread: forgotten, never joined.
    new (&thread_) std::thread();
    tids_.clear();
    topFrames_.clear();
    callsites_.clear();
    strings_.clear();
    start();
}

SampleStats StackSampler::stats() const {
    return {ticks_.load(), samples_.load(), late_.load(), filled_.load()};
}

void StackSampler::loop() {
    const Api& a = *api();
    const int64_t period = 1'000'000'000 / hz_;
    auto ns = [](const timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; };
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t due = ns(now);
    while (!stop_.load()) {
        due += period;
        const timespec until{time_t(due / 1'000'000'000), long(due % 1'000'000'000)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
        }
        if (stop_.load() || !recording()) break;
        const int gil = a.PyGILState_Ensure();
        // A thread that held the GIL past the tick (CPU-bound Python code hands it over only
        // every switch interval) delayed it: the stacks seen now stand for the ticks missed
        // too, so a busy function keeps its share of the samples.
        clock_gettime(CLOCK_MONOTONIC, &now);
        const int64_t missed = std::max<int64_t>(0, (ns(now) - due) / period);
        if (!stop_.load())
            tick(g_collector->writer, getpid(), uint32_t(std::min<int64_t>(missed, 1000)) + 1,
                 period);
        a.PyGILState_Release(gil);
        if (missed) {
            late_.fetch_add(1, std::memory_order_relaxed);
            filled_.fetch_add(uint64_t(missed), std::memory_order_relaxed);
            due += missed * period;
        }
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
    auto found = topFrames_.find(reinterpret_cast<uintptr_t>(top));
    if (found == topFrames_.end()) {
        resolveThreads(w, pid); // a thread not seen before: ask threading once
        found = topFrames_.find(reinterpret_cast<uintptr_t>(top));
    }
    // A thread threading does not know (started by _thread or C code) stays unsampled.
    const int64_t tid = found == topFrames_.end() ? 0 : found->second;
    tids_.emplace(id, tid);
    return tid;
}

void StackSampler::tick(StrataTraceWriter& w, int64_t pid, uint32_t copies, int64_t period) {
    const Api& a = *api();
    const uint64_t ts = clockNs();
    ticks_.fetch_add(1, std::memory_order_relaxed);
    PyThreadState* self = a.PyThreadState_Get();
    for (PyThreadState* t = a.PyInterpreterState_ThreadHead(a.PyInterpreterState_Main()); t;
         t = a.PyThreadState_Next(t)) {
        if (t == self) continue;
        PyFrameObject* f = a.PyThreadState_GetFrame(t);
        if (!f) continue; // no Python frame (a thread in C code only)
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
