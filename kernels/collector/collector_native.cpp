// The collector's side of --cpu-sample (native/native_sampler.h): the sampler started by the
// library's constructor and adopted when the recording starts, or started with the collector's
// threads; stopped before the file closes, what it did in the run's metadata; and the thread
// names both samplers share.
//
// Loaded into every process of the run (LD_PRELOAD), the collector samples each from its
// start but makes a file only for a process that lives: one that has run 100 ms (the
// collector starts then, StartedBy::Load), or the launched program itself when it ends sooner.
// A wrapper that execs the real program before that (env, nice, numactl; a pyenv shim) and a
// short helper leave nothing, and shells (a script's bash) are not sampled at all.
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "native/native_sampler.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace strata {

namespace {

constexpr int64_t kLoadRecordsAfterNs = 100'000'000;

// The signal each thread's counter sends: one no other part of the collector takes (the
// Python agent's CPU ticks are SIGRTMAX-2 and -3).
int samplingSignal() {
    return SIGRTMAX - 4;
}

bool namedBetter(int64_t tid) {
    return g_collector && g_collector->threadNamed(tid);
}

// 1..10000, else 0.
int rateOf(const char* text) {
    const int hz = std::atoi(text);
    return hz >= 1 && hz <= 10000 ? hz : 0;
}

// The sampler the constructor started (in process g_earlyPid), until the collector adopts it;
// or why it could not start.
native::NativeSampler* g_early = nullptr;
pid_t g_earlyPid = 0;
std::string g_earlyRefusal;

bool isShell() {
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = 0;
    const char* base = std::strrchr(exe, '/');
    base = base ? base + 1 : exe;
    for (const char* shell :
         {"bash", "sh", "dash", "zsh", "ksh", "ksh93", "mksh", "fish", "csh", "tcsh", "busybox"})
        if (std::strcmp(base, shell) == 0) return true;
    return false;
}

bool launchedProgram() {
    const char* launcher = std::getenv(collector_env::kLauncherPid);
    return launcher && std::atoll(launcher) == int64_t(getppid());
}

void startRecording() {
    collectorStart(StartedBy::Load);
}

// At exit, a process whose recording never started: the launched program records what it has;
// any other is let go (its sampler stopped first).
void exitBeforeRecording() {
    native::NativeSampler* s = g_early;
    if (!s || g_earlyPid != getpid() || s->attached()) return;
    if (launchedProgram()) {
        startRecording();
        collectorShutdown();
    } else {
        s->stop();
    }
}

} // namespace

void startSamplingAtLoad(const char* hzText) {
    const int hz = rateOf(hzText);
    if (!hz || isShell()) return; // a bad rate is said when the collector starts
    auto* sampler = new native::NativeSampler(collectorInstance().writer, namedBetter);
    std::string why;
    if (!sampler->start(hz, samplingSignal(), &why)) {
        delete sampler;
        g_earlyRefusal = why;
        return;
    }
    sampler->callWhenReady(startRecording, kLoadRecordsAfterNs);
    g_early = sampler;
    g_earlyPid = getpid();
    std::atexit(exitBeforeRecording);
}

void Collector::startNativeSampler(const char* hzText) {
    const int hz = rateOf(hzText);
    native::NativeSampler* sampler = nullptr;
    std::string why;
    if (g_early && g_earlyPid == getpid()) {
        sampler = std::exchange(g_early, nullptr); // what it took since the process started
    } else if (!hz) {
        why = std::string("'") + hzText + "' is not a rate of 1..10000 Hz";
    } else if (!g_earlyRefusal.empty() && g_earlyPid == 0) {
        why = g_earlyRefusal;
    } else {
        sampler = new native::NativeSampler(writer, namedBetter);
        if (!sampler->start(hz, samplingSignal(), &why)) {
            delete sampler;
            sampler = nullptr;
        }
    }
    if (!sampler) {
        writer.metadata("cpu_sample", "not recorded: " + why);
        writer.warning("native stacks (--cpu-sample) not recorded: " + why);
        return;
    }
    nativeSampler = sampler;
    writer.metadata("cpu_sample", std::to_string(hz) + " Hz of each thread's CPU time (" +
                                      sampler->source() + "; libunwind, libdw; signal " +
                                      std::to_string(samplingSignal()) + ")");
    sampler->attach();
}

void Collector::stopNativeSampler() {
    if (!nativeSampler) return;
    nativeSampler->stop();
    const native::NativeSampleStats s = nativeSampler->stats();
    writer.metadata("native_samples", std::to_string(s.samples));
    writer.metadata("native_sample_threads", std::to_string(s.threads));
    writer.metadata("native_sample_unwind_ns", std::to_string(s.unwindNs));
    writer.metadata("native_sampler_cpu_ms", std::to_string(s.ownCpuNs / 1'000'000));
    if (s.dropped) {
        writer.metadata("native_samples_dropped", std::to_string(s.dropped));
        writer.warning(std::to_string(s.dropped) +
                       " native stack samples dropped (a thread's ring was full between two "
                       "drains)");
    }
    // Not deleted: a signal already queued may still reach the handler, which reads it.
    nativeSampler = nullptr;
}

bool Collector::threadNamed(int64_t tid) {
    std::lock_guard lock(namedMutex);
    return namedThreads.count(tid) > 0;
}

void Collector::markThreadNamed(int64_t tid) {
    std::lock_guard lock(namedMutex);
    namedThreads.insert(tid);
}

} // namespace strata
