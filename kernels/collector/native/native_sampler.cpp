#include "native/native_sampler.h"

#include "io/strata/strata_trace_writer.h"
#include "native/sample_ring.h"
#include "process/process_info.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace strata {
uint64_t clockNs(); // collector_instance.h: the clock of every record
}

namespace strata::native {

namespace {

// What the signal handler needs: set before any counter exists, never cleared while one may
// fire.
const Unwinder* g_unwinder = nullptr;
std::atomic<bool> g_sampling{false};
// The ring of each perf event's descriptor (the signal names the descriptor, si_fd).
constexpr int kMaxFds = 1 << 16;
std::atomic<SampleRing*> g_ringOfFd[kMaxFds];

void onSample(int, siginfo_t* info, void* ucontext) {
    if (!g_sampling.load(std::memory_order_relaxed)) return;
    // Only our counters' signals carry a ring: a CPU timer's (SI_TIMER, the ring its value) or
    // a perf event's (POLL_IN from its descriptor); any other sender is ignored.
    SampleRing* ring = nullptr;
    uint32_t periods = 1;
    if (info->si_code == SI_TIMER) {
        ring = static_cast<SampleRing*>(info->si_value.sival_ptr);
        periods += uint32_t(info->si_overrun > 0 ? info->si_overrun : 0);
    } else if (info->si_code == POLL_IN && info->si_fd >= 0 && info->si_fd < kMaxFds) {
        ring = g_ringOfFd[info->si_fd].load(std::memory_order_acquire);
    }
    if (!ring) return;
    const int savedErrno = errno;
    if (NativeSample* s = ring->begin()) {
        s->ts = clockNs();
        s->periods = periods;
        s->depth = uint32_t(g_unwinder->backtrace(ucontext, s->ips, NativeSample::kMaxDepth));
        s->unwindNs = uint32_t(std::min<uint64_t>(clockNs() - s->ts, UINT32_MAX));
        ring->commit();
    }
    errno = savedErrno;
}

// The CPU clock of thread `tid` of this process (glibc's pthread_getcpuclockid, for a thread
// known by its id): the kernel's CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED encoding.
clockid_t threadCpuClock(int64_t tid) {
    return clockid_t((~clockid_t(tid) << 3) | 4 | 2);
}

// The task-clock perf event of thread `tid` (0: the caller), overflowing every `periodNs` of its
// CPU time, in the kernel too unless `userOnly` (a period ending in a system call is signalled
// as it returns: the call's time goes to the code that made it); -1 with errno when the kernel
// refuses.
int openTaskClock(int64_t tid, int64_t periodNs, bool userOnly) {
    perf_event_attr a{};
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_period = uint64_t(periodNs);
    a.disabled = 1;
    a.exclude_kernel = userOnly ? 1 : 0; // user only: what perf_event_paranoid 2 allows
    a.exclude_hv = 1;
    return int(syscall(SYS_perf_event_open, &a, pid_t(tid), -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// The collector's own threads (markCollectorThread), few: a slot each.
constexpr int kMaxOwnThreads = 16;
std::atomic<int64_t> g_ownThreads[kMaxOwnThreads];

bool collectorThread(int64_t tid) {
    for (const auto& t : g_ownThreads)
        if (t.load(std::memory_order_relaxed) == tid) return true;
    return false;
}

int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

std::string threadComm(int64_t tid) {
    std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

} // namespace

void markCollectorThread() {
    const int64_t tid = currentThreadId();
    for (auto& slot : g_ownThreads) {
        int64_t free = 0;
        if (slot.load() == tid || slot.compare_exchange_strong(free, tid)) return;
    }
}

NativeSampler::~NativeSampler() {
    stop();
}

bool NativeSampler::start(int hz, int signal, std::string* why) {
    if (!unwinder_.load(why) || !symbols_.load(why)) return false;
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) != 0 ||
        ((current.sa_flags & SA_SIGINFO) ? current.sa_sigaction != onSample
                                         : current.sa_handler != SIG_DFL)) {
        *why = "signal " + std::to_string(signal) + " has a handler already";
        return false;
    }
    signal_ = signal;
    periodNs_ = 1'000'000'000 / hz;
    pid_ = getpid();
    int probe = openTaskClock(0, periodNs_, false);
    userOnly_ = probe < 0;
    if (userOnly_) probe = openTaskClock(0, periodNs_, true);
    if (probe >= 0) {
        close(probe);
        perf_ = true;
        source_ = userOnly_ ? "perf task-clock, user time only (perf_event_paranoid 2)"
                            : "perf task-clock";
    } else {
        source_ = std::string("CPU timer at the kernel's tick (perf_event_open: ") +
                  std::strerror(errno) + ")";
    }
    g_unwinder = &unwinder_;
    struct sigaction ours {};
    ours.sa_sigaction = onSample;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    sigaction(signal, &ours, nullptr);
    g_sampling.store(true);
    stop_.store(false);
    running_ = true;
    thread_ = std::thread([this] { loop(); });
    return true;
}

void NativeSampler::stop() {
    if (!running_) return;
    running_ = false;
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    g_sampling.store(false);
}

NativeSampleStats NativeSampler::stats() const {
    const uint64_t unwound = unwound_.load();
    return {samples_.load(), dropped_.load(), armed_.load(),
            unwound ? unwindNs_.load() / unwound : 0, ownCpuNs_.load()};
}

void NativeSampler::loop() {
    ownTid_ = currentThreadId();
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, signal_);
    pthread_sigmask(SIG_BLOCK, &mask, nullptr);
    uint64_t scan = 0;
    while (!stop_.load()) {
        scanThreads(++scan);
        if (!attached_.load() && ready_ && monotonicNs() >= readyAtNs_)
            std::exchange(ready_, nullptr)(); // the collector starts: attach() comes
        if (attached_.load()) writeKept();
        for (auto& [tid, t] : threads_) drain(tid, t);
        timespec nap{0, 20'000'000};
        while (nanosleep(&nap, &nap) != 0 && errno == EINTR && !stop_.load()) {
        }
    }
    // The end: no counter fires again; what the rings hold is written.
    for (auto& [tid, t] : threads_) disarm(t);
    if (attached_.load()) writeKept();
    for (auto& [tid, t] : threads_) drain(tid, t);
    timespec cpu{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    ownCpuNs_.store(uint64_t(cpu.tv_sec) * 1'000'000'000 + uint64_t(cpu.tv_nsec));
    uint64_t dropped = 0;
    for (auto& [tid, t] : threads_)
        if (t.ring) dropped += t.ring->dropped();
    dropped_.store(dropped);
    // The rings stay: a signal already queued may still reach its handler.
}

void NativeSampler::scanThreads(uint64_t scan) {
    if (DIR* dir = opendir("/proc/self/task")) {
        while (const dirent* e = readdir(dir)) {
            const int64_t tid = std::atoll(e->d_name);
            if (tid <= 0 || tid == ownTid_ || collectorThread(tid)) continue;
            auto [it, fresh] = threads_.try_emplace(tid);
            it->second.scan = scan;
            if (fresh && !arm(tid, &it->second)) it->second.ring = nullptr;
        }
        closedir(dir);
    }
    // Threads that ended: their counters went with them; what they wrote is written, then their
    // rings are freed (no handler can run on a thread that has ended). Only those the kernel
    // says are gone: a listing made while other threads end can skip a live one.
    for (auto it = threads_.begin(); it != threads_.end();) {
        if (it->second.scan == scan || syscall(SYS_tgkill, pid_t(pid_), pid_t(it->first), 0) == 0) {
            ++it;
            continue;
        }
        if (it->second.ring) {
            disarm(it->second);
            drain(it->first, it->second);
            dropped_.fetch_add(it->second.ring->dropped());
            SampleRing::destroy(it->second.ring);
        }
        it = threads_.erase(it);
    }
}

bool NativeSampler::arm(int64_t tid, Thread* t) {
    t->ring = SampleRing::create();
    if (!t->ring) return false;
    if (!(perf_ ? armPerf(tid, t) : armTimer(tid, t))) {
        SampleRing::destroy(t->ring); // it ended before its counter
        t->ring = nullptr;
        return false;
    }
    armed_.fetch_add(1);
    t->name = threadComm(tid);
    return true;
}

bool NativeSampler::armPerf(int64_t tid, Thread* t) {
    const int fd = openTaskClock(tid, periodNs_, userOnly_);
    if (fd < 0) return false;
    if (fd >= kMaxFds) {
        close(fd);
        return false;
    }
    g_ringOfFd[fd].store(t->ring, std::memory_order_release);
    // Each overflow signals the thread itself (F_SETSIG: a queued real-time signal, si_fd set);
    // REFRESH lets it overflow that many times before the kernel disables it.
    f_owner_ex owner{F_OWNER_TID, pid_t(tid)};
    if (fcntl(fd, F_SETFL, O_ASYNC) != 0 || fcntl(fd, F_SETSIG, signal_) != 0 ||
        fcntl(fd, F_SETOWN_EX, &owner) != 0 || ioctl(fd, PERF_EVENT_IOC_REFRESH, 1 << 30) != 0) {
        g_ringOfFd[fd].store(nullptr);
        close(fd);
        return false;
    }
    t->fd = fd;
    return true;
}

bool NativeSampler::armTimer(int64_t tid, Thread* t) {
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = signal_;
    event.sigev_value.sival_ptr = t->ring;
    event._sigev_un._tid = pid_t(tid);
    if (timer_create(threadCpuClock(tid), &event, &t->timer) != 0) return false;
    itimerspec every{};
    every.it_interval = {time_t(periodNs_ / 1'000'000'000), long(periodNs_ % 1'000'000'000)};
    every.it_value = every.it_interval;
    timer_settime(t->timer, 0, &every, nullptr);
    return true;
}

void NativeSampler::disarm(Thread& t) {
    if (!t.ring) return;
    if (t.fd >= 0) {
        ioctl(t.fd, PERF_EVENT_IOC_DISABLE, 0);
        g_ringOfFd[t.fd].store(nullptr, std::memory_order_release);
        close(t.fd);
        t.fd = -1;
    } else {
        timer_delete(t.timer);
    }
}

void NativeSampler::attach() {
    attached_.store(true);
}

void NativeSampler::callWhenReady(void (*ready)(), int64_t readyAfterNs) {
    ready_ = ready;
    readyAtNs_ = monotonicNs() + readyAfterNs;
}

void NativeSampler::drain(int64_t tid, Thread& t) {
    if (!t.ring) return;
    if (!t.named && attached_.load()) {
        // Its name now (a thread names itself after it starts), or the one it had when armed.
        t.named = true;
        const std::string now = threadComm(tid);
        if (!named_(tid)) writer_.thread(pid_, tid, now.empty() ? t.name : now);
    }
    t.ring->drain([&](const NativeSample& s) {
        unwound_.fetch_add(1, std::memory_order_relaxed);
        unwindNs_.fetch_add(s.unwindNs, std::memory_order_relaxed);
        if (attached_.load(std::memory_order_relaxed)) {
            write(tid, s.ips, s.depth, s.ts, s.periods);
            return;
        }
        kept_.insert(kept_.end(), {uint64_t(tid), s.ts, s.periods, s.depth});
        kept_.insert(kept_.end(), s.ips, s.ips + s.depth);
    });
}

void NativeSampler::writeKept() {
    for (size_t i = 0; i + 4 <= kept_.size();) {
        const uint32_t depth = uint32_t(kept_[i + 3]);
        static_assert(sizeof(uintptr_t) == sizeof(uint64_t));
        write(int64_t(kept_[i]), reinterpret_cast<const uintptr_t*>(&kept_[i + 4]), depth,
              kept_[i + 1], uint32_t(kept_[i + 2]));
        i += 4 + depth;
    }
    kept_.clear();
    kept_.shrink_to_fit();
}

void NativeSampler::write(int64_t tid, const uintptr_t* ips, uint32_t depth, uint64_t ts,
                          uint32_t periods) {
    // One sample per period, the earlier ones a period apart before the signal (as the Python
    // sampler fills the periods of a late tick).
    const uint32_t site = siteOf(ips, depth);
    for (uint32_t k = periods; k-- > 0;)
        writer_.stackSample(pid_, tid, TimeNs(ts - k * uint64_t(periodNs_)), site, 1 /* Native */);
    samples_.fetch_add(periods, std::memory_order_relaxed);
}

uint32_t NativeSampler::frameString(uintptr_t ip, bool returnAddress) {
    const uint64_t key = uint64_t(ip) << 1 | (returnAddress ? 1 : 0);
    if (auto it = frameStrings_.find(key); it != frameStrings_.end()) return it->second;
    const std::string name = symbols_.nameOf(ip, returnAddress);
    // In no module: code made at run time, a bad frame, or a library loaded since the mappings
    // were read (named when asked again).
    if (name.empty()) return writer_.string("[unknown]");
    const uint32_t id = writer_.string(name);
    frameStrings_.emplace(key, id);
    return id;
}

uint32_t NativeSampler::siteOf(const uintptr_t* ips, uint32_t depth) {
    uint32_t site = 0;
    for (uint32_t i = depth; i-- > 0;) {
        const uint32_t frame = frameString(ips[i], i > 0);
        const uint64_t key = uint64_t(site) << 32 | frame;
        auto it = callsites_.find(key);
        if (it == callsites_.end())
            it = callsites_.emplace(key, writer_.newCallsite(site, frame)).first;
        site = it->second;
    }
    return site;
}

} // namespace strata::native
