#include "python/stack_sampler.h"

#include "collector_instance.h"
#include "io/strata/strata_trace_writer.h"
#include "native/native_sampler.h"
#include "process/process_info.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <unistd.h>

namespace strata::python {

namespace {

int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

} // namespace

StackSampler::StackSampler(FrameTable& frames, int hz, PyObject* threads)
    : walker_(frames, threads), periodNs_(1'000'000'000 / hz) {}

StackSampler::~StackSampler() {
    stop();
}

void StackSampler::start() {
    stop_.store(false);
    thread_ = std::thread([this] { loop(); });
}

void StackSampler::stop() {
    stop_.store(true);
    cpuTimer_.stop();
    servedCv_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void StackSampler::restartInChild() {
    // The std::thread object describes the parent's thread: forgotten, never joined; its
    // pending call, if one was queued, went with the parent's interpreter state.
    new (&thread_) std::thread();
    new (&requestMutex_) std::mutex(); // the parent's sampler may have held it at the fork
    new (&servedCv_) std::condition_variable();
    queued_.store(false);
    walker_.resetForChild();
    // Timers are not inherited: the child's one thread gets its own.
    if (cpuTimer_.running()) {
        cpuTimer_ = CpuTickTimer();
        std::string why;
        startCpuTicks(simulatedSignal_, kernelSignal_, &why);
    }
    start();
}

SampleStats StackSampler::stats() const {
    return {ticks_.load(),  samples_.load(),  late_.load(),
            filled_.load(), cpuTicks_.load(), apiCalls_.load()};
}

void StackSampler::write(StrataTraceWriter& w, int64_t tid, uint32_t site, uint32_t copies,
                         uint64_t ts) {
    const int64_t pid = getpid();
    for (uint32_t k = copies; k-- > 0;)
        w.stackSample(pid, tid, TimeNs(ts - k * uint64_t(periodNs_)), site, 0);
    samples_.fetch_add(copies, std::memory_order_relaxed);
}

int StackSampler::pendingTick(void* p) {
    auto* s = static_cast<StackSampler*>(p);
    s->queued_.store(false);
    uint64_t seq = 0;
    {
        std::lock_guard lock(s->requestMutex_);
        seq = s->request_.seq;
    }
    if (!s->stop_.load()) s->serve(seq);
    return 0;
}

void StackSampler::serve(uint64_t seq) {
    Request r;
    {
        std::lock_guard lock(requestMutex_);
        if (seq <= served_ || request_.seq != seq) return;
        r = request_;
    }
    if (!recording()) return;
    const Api& a = *api();
    StrataTraceWriter& w = g_collector->writer;
    int others = 0;
    // Every thread with a frame (the sampler's own thread state, PyGILState_Ensure's, has
    // none, like any thread in C code alone), taken under the thread list's lock.
    PyObject* frames = a.ThreadCurrentFrames();
    if (!frames) {
        a.PyErr_Clear();
        return;
    }
    intptr_t pos = 0;
    PyObject *key = nullptr, *value = nullptr;
    while (a.PyDict_Next(frames, &pos, &key, &value)) {
        const unsigned long ident = a.PyLong_AsUnsignedLong(key);
        const bool main = mainIdent_ && ident == mainIdent_;
        if (!main) ++others;
        const uint32_t copies = main ? r.mainCopies : r.otherCopies;
        if (!copies) continue;
        const int64_t tid = main ? mainTid_ : walker_.threadOf(w, getpid(), ident, ticks_.load());
        if (tid)
            write(w, tid, walker_.siteOfFrame(w, reinterpret_cast<PyFrameObject*>(value)), copies,
                  r.ts);
    }
    a.Py_DecRef(frames);
    othersSeen_.store(others);
    {
        std::lock_guard lock(requestMutex_);
        served_ = seq;
    }
    servedCv_.notify_one();
}

void StackSampler::loop() {
    native::markCollectorThread();
    const Api& a = *api();
    int64_t last = monotonicNs();
    uint64_t seq = 0;
    while (!stop_.load()) {
        const int64_t due = last + periodNs_;
        const timespec until{time_t(due / 1'000'000'000), long(due % 1'000'000'000)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
        }
        if (stop_.load() || !recording()) break;
        // The periods since the last tick: one, or more when this thread was not scheduled.
        const int64_t n = std::max<int64_t>(1, (monotonicNs() - last) / periodNs_);
        last += n * periodNs_;
        const uint64_t ts = clockNs();
        const uint64_t tick = ticks_.fetch_add(1) + 1;
        if (n > 1) late_.fetch_add(1), filled_.fetch_add(uint64_t(n - 1));
        // The periods the main thread ran, from its CPU clock: the stack it noted, the
        // earliest of them (a thread that stopped running did so at the end).
        uint32_t mainIdle = uint32_t(std::min<int64_t>(n, 1000));
        if (cpuTimer_.running()) {
            const int64_t cpu = cpuTimer_.cpuNs();
            const int64_t busy = std::clamp<int64_t>(
                std::llround(double(cpu - lastWallCpu_) / double(periodNs_)), 0, n);
            lastWallCpu_ = cpu;
            // Its notes stopped while it runs (the program took the signal for itself, or a
            // C call holds the thread that long): the note is stale, the GIL path samples it.
            const uint64_t notes = cpuTicks_.load();
            busyWithoutNote_ = notes != lastNotes_ ? 0 : busyWithoutNote_ + (busy ? 1 : 0);
            lastNotes_ = notes;
            const uint32_t site = busyWithoutNote_ < 50 ? busySite_.load() : 0;
            if (busy && site) {
                write(g_collector->writer, mainTid_, site, uint32_t(std::min<int64_t>(busy, 1000)),
                      ts - uint64_t(n - busy) * uint64_t(periodNs_));
                mainIdle = uint32_t(std::min<int64_t>(n - busy, 1000));
            }
        }
        // With the GIL: the main thread's other periods, and the other threads (looked for
        // every 128 ticks when there were none).
        if (!mainIdle && othersSeen_.load() == 0 && tick % 128) continue;
        {
            std::lock_guard lock(requestMutex_);
            request_ = {++seq, mainIdle, uint32_t(std::min<int64_t>(n, 1000)), ts};
        }
        if (!queued_.exchange(true) && a.Py_AddPendingCall(pendingTick, this) != 0)
            queued_.store(false);
        bool served = false;
        {
            std::unique_lock lock(requestMutex_);
            served = servedCv_.wait_for(lock, std::chrono::nanoseconds(periodNs_ / 5),
                                        [&] { return served_ >= seq || stop_.load(); });
        }
        if (!served && !stop_.load()) {
            const int gil = a.PyGILState_Ensure();
            serve(seq);
            a.PyGILState_Release(gil);
        }
    }
}

bool StackSampler::startCpuTicks(int simulated, int kernelSignal, std::string* why) {
    simulatedSignal_ = simulated, kernelSignal_ = kernelSignal;
    mainIdent_ = api()->PyThread_get_thread_ident();
    mainTid_ = currentThreadId();
    if (!cpuTimer_.start(simulated, kernelSignal, periodNs_, why)) return false;
    lastWallCpu_ = cpuTimer_.cpuNs();
    return true;
}

void StackSampler::cpuTick() {
    if (stop_.load() || !recording()) return;
    cpuTicks_.fetch_add(1, std::memory_order_relaxed);
    busySite_.store(walker_.siteOf(g_collector->writer, api()->PyThreadState_Get()));
}

void StackSampler::apiCallStack() {
    if (stop_.load() || !recording()) return;
    StrataTraceWriter& w = g_collector->writer;
    const uint32_t site = walker_.siteOf(w, api()->PyThreadState_Get());
    w.stackSample(getpid(), currentThreadId(), TimeNs(clockNs()), site, 2 /* ApiCall */);
    apiCalls_.fetch_add(1, std::memory_order_relaxed);
}

namespace {

// PyMethodDef (Include/methodobject.h; the same from 3.10 to 3.13).
struct MethodDef {
    const char* name;
    PyObject* (*function)(PyObject*, PyObject*);
    int flags;
    const char* doc;
};
constexpr int kMethVarargs = 0x0001;

StackSampler* g_tickSampler = nullptr;

PyObject* onCpuTick(PyObject*, PyObject*) {
    if (g_tickSampler) g_tickSampler->cpuTick();
    api()->Py_IncRef(api()->none);
    return api()->none;
}

MethodDef g_tickMethod{"strata_cpu_tick", onCpuTick, kMethVarargs,
                       "Strata: the main thread notes its stack (its CPU timer's signal)"};

} // namespace

PyObject* StackSampler::cpuTickHandler() {
    g_tickSampler = this;
    return api()->PyCFunction_NewEx(&g_tickMethod, nullptr, nullptr);
}

} // namespace strata::python
