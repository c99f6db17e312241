#pragma once
// --cpu-sample=HZ: the native stack of every thread of the process, once per 1/HZ s of the CPU
// time it uses (what perf and Nsight Systems' CPU sampling count; a thread
// asleep or blocked is not sampled). Each thread has a counter of its own CPU time that signals
// that thread every period: the kernel's task-clock perf event (perf_event_open, an hrtimer:
// on time; its time in user space only where perf_event_paranoid is 2), or where perf events are
// refused (perf_event_paranoid 3, some containers) a POSIX timer on the thread's CPU clock (checked
// at the kernel's tick only: 4 ms at HZ=250, so a program whose phases are a few ms long is sampled
// with a bias; the run says which it got). The handler unwinds the stack it interrupted
// (unwinder.h) into the thread's ring (sample_ring.h). A thread of the sampler's own, every 20 ms,
// gives each new thread of the process (/proc/self/task) its counter, drains the rings, names the
// addresses (symbolizer.h: each address once, as it first appears, so a run that is killed keeps
// names for all it wrote) and writes the stacks as callsites and native stack samples
// (StackKind::Native). Started before the trace is open (the library's constructor,
// collector_native.cpp), it keeps what it drains until attach(): the collector's file is made only
// for a process that lives.
#include "native/symbolizer.h"
#include "native/unwinder.h"

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace strata {
class StrataTraceWriter;
}

namespace strata::native {

class SampleRing;
struct NativeSample;

// The calling thread is one of the collector's own (its flush thread, a sampler's): not
// sampled, its time is the collector's, not the program's. Any thread, any time.
void markCollectorThread();

struct NativeSampleStats {
    uint64_t samples = 0;  // written
    uint64_t dropped = 0;  // a ring was full
    uint64_t threads = 0;  // given a counter
    uint64_t unwindNs = 0; // the mean time the handler took to unwind a stack
    uint64_t ownCpuNs = 0; // the sampler thread's CPU (draining, naming, writing)
};

class NativeSampler {
public:
    // `named`: whether a thread has a better name than its system one (not written over).
    NativeSampler(StrataTraceWriter& writer, bool (*named)(int64_t tid))
        : writer_(writer), named_(named) {}
    ~NativeSampler();
    NativeSampler(const NativeSampler&) = delete;
    NativeSampler& operator=(const NativeSampler&) = delete;
    // Loads libunwind and libdw, takes signal `signal` and starts the sampler thread. False
    // with `why` when it cannot (nothing is left running then).
    bool start(int hz, int signal, std::string* why);
    // What counts each thread's time: "perf task-clock" or "CPU timer (...why not perf)".
    const std::string& source() const { return source_; }
    // From now on samples go to the writer (open): those kept until now first. `ready`, until
    // then, is called once by the sampler thread when the process has run `readyAfterNs`.
    void attach();
    void callWhenReady(void (*ready)(), int64_t readyAfterNs);
    bool attached() const { return attached_.load(); }
    // Every counter closed, every ring drained (into the writer when attached), the thread
    // joined. Before the file closes.
    void stop();
    NativeSampleStats stats() const;

private:
    struct Thread {
        int fd = -1;     // its perf event
        timer_t timer{}; // or its CPU timer
        SampleRing* ring = nullptr;
        uint64_t scan = 0; // the last scan that saw it
        std::string name;  // its system name, written once attached
        bool named = false;
    };
    void loop();
    void scanThreads(uint64_t scan); // timers for new threads; ended ones drained and freed
    bool arm(int64_t tid, Thread* t);
    bool armPerf(int64_t tid, Thread* t);
    bool armTimer(int64_t tid, Thread* t);
    void disarm(Thread& t); // its counter gone: no new sample
    void drain(int64_t tid, Thread& t);
    void write(int64_t tid, const uintptr_t* ips, uint32_t depth, uint64_t ts, uint32_t periods);
    void writeKept();
    uint32_t siteOf(const uintptr_t* ips, uint32_t depth);
    uint32_t frameString(uintptr_t ip, bool returnAddress);

    StrataTraceWriter& writer_;
    bool (*named_)(int64_t tid);
    Unwinder unwinder_;
    Symbolizer symbols_;
    int signal_ = 0;
    bool perf_ = false, userOnly_ = false;
    std::string source_;
    int64_t periodNs_ = 0;
    int64_t pid_ = 0, ownTid_ = 0;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    bool running_ = false;
    std::unordered_map<int64_t, Thread> threads_; // tid -> its timer and ring
    std::atomic<bool> attached_{false};
    void (*ready_)() = nullptr;
    int64_t readyAtNs_ = 0; // CLOCK_MONOTONIC
    // Drained before attach(): tid, ts, periods, depth, then the addresses, sample after sample.
    std::vector<uint64_t> kept_;
    std::unordered_map<uint64_t, uint32_t> frameStrings_; // ip << 1 | returnAddress -> string
    std::unordered_map<uint64_t, uint32_t> callsites_;    // parent << 32 | string -> callsite
    std::atomic<uint64_t> samples_{0}, dropped_{0}, armed_{0};
    std::atomic<uint64_t> unwound_{0}, unwindNs_{0}; // the signals handled, their unwinding time
    std::atomic<uint64_t> ownCpuNs_{0};
};

} // namespace strata::native
