#pragma once
// The process's one Collector and the state it shares between its lifecycle (collector.cpp:
// start, the flush and close threads, shutdown), the callbacks CUPTI calls
// (collector_callbacks.cpp) and the exit, fork and signal hooks (process_hooks.cpp). Internal to
// the collector library.
#include "activities/activity_parser.h"
#include "activities/api_names.h"
#include "buffer_pool.h"
#include "capture_schedule.h"
#include "collector.h"
#include "collector_config.h"
#include "contract/attach_registry.h"
#include "contract/launcher_tie.h"
#include "io/strata/strata_trace_writer.h"

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <semaphore.h>
#include <string>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace strata {

namespace native {
class NativeSampler;
}
namespace gpu_metrics {
class GpuMetrics;
}
namespace kernel_metrics {
class KernelMetrics;
}

class Collector {
public:
    // --- state shared with callbacks (never destroyed) ---
    std::mutex initMutex;
    std::atomic<CollectorState> state{CollectorState::NotStarted};
    pid_t owner = 0;
    bool cudaInitialized = false;
    bool cuptiStarted = false; // subscribed, the buffers registered (not in a Python-only run)
    CollectorConfig config;
    StrataTraceWriter writer;
    BufferPool pool;
    ApiNameTable names;
    CUpti_SubscriberHandle subscriber = nullptr;

    std::timed_mutex parserMutex; // parser + writer calls from completion callbacks
    ActivityParser* parser = nullptr;
    std::mutex flushMutex; // writer.flush()/close(): no chunk half-written while we fork

    std::mutex scheduleMutex;
    CaptureSchedule schedule;
    std::unordered_map<uint64_t, std::string> nvtxRangeNames; // nvtxRangeStart id -> name
    std::atomic<bool> captureStopped{false};

    sem_t wake{};
    std::atomic<bool> stopThread{false};
    std::thread flusher;
    std::atomic<pid_t> flusherTid{0};
    std::atomic<int> signalRequest{0}; // 0 none, 1 flush, 2 close
    std::atomic<int> signalServed{0};  // increments when a signal request was served
    sem_t emergencyWake{};             // a fatal signal the flush thread could not serve
    std::atomic<int> emergencyServed{0};
    std::thread closer;
    std::atomic<bool> shutDown{false};
    std::atomic<uint64_t> droppedTotal{0};
    uint64_t droppedWritten = 0;   // live: the dropped count last written (under flushMutex)
    bool writeFailureSaid = false; // a failed write (a full disk) was said on stderr
    std::atomic<bool> sectionsArmed{false}; // a section helper enabled the launch callbacks
    std::mutex namedMutex;                  // namedThreads
    std::unordered_set<int64_t> namedThreads;

    // The tie to the launcher's life (contract/launcher_tie.h, collector_launcher.cpp).
    LauncherTie tie;
    std::atomic<int> lastSignal{0};  // the last SIGINT/SIGTERM/crash signal the hooks saw
    std::atomic<int> fatalSignal{0}; // one the process is ending by (the default action follows)
    int64_t launcherGoneSinceNs = 0; // the flush thread first saw the launcher gone (clockNs)

    void start(StartedBy by);
    bool openTrace(StartedBy by); // the file and its first chunk; false: the program runs untraced
    bool startCupti();            // subscribe, callbacks, activity kinds; false: CUPTI refused
    void disableCaptureActivities(); // the schedule is over: CUPTI's capture groups off
    void startThreads();             // Recording: the hooks, the flush and close threads
    void enableActivities();
    void reportSubscribeFailure(CUptiResult r, const char* oldName);
    void flushLoop();
    void closeLoop();
    void flushOnce(uint32_t cuptiFlag, bool closeFile); // drainCupti + writeOut
    void drainCupti(uint32_t cuptiFlag);
    void writeOut(bool closeFile);
    void collectDropped();
    void shutdown();
    // The Python agent's (kernels/collector/python): its calls as slices, written before each
    // chunk is closed (final: the last one, open frames end).
    void (*beforeWrite)(bool final) = nullptr;
    // Also the agent's: called on a CUDA launch, copy, set or sync call as it begins, on the
    // calling thread (the Python stack it was called from). Its callbacks are enabled by
    // enableApiCallStacks() once CUPTI is up.
    void (*apiCallStack)() = nullptr;
    std::vector<bool> stackedRuntime, stackedDriver; // by callback id
    void enableApiCallStacks();
    // --cpu-sample (native/native_sampler.h): started with the threads, stopped before the
    // file closes. Null when not asked for or refused (the cpu_sample metadata says why).
    native::NativeSampler* nativeSampler = nullptr;
    void startNativeSampler(const char* hz);
    void stopNativeSampler();
    // --gpu-metrics (gpu_metrics/gpu_metrics.h): made by startCupti when STRATA_GPU_METRICS asks
    // for metrics, with the context callbacks it needs; null otherwise (nothing of it runs).
    // Decoded by drainCupti, finished by writeOut's close after CUPTI's last flush.
    gpu_metrics::GpuMetrics* gpuMetrics = nullptr;
    void startGpuMetrics();
    // --kernel-metrics (kernel_metrics/kernel_metrics.h): made by startCupti when
    // STRATA_KERNEL_METRICS is set, with the launch callbacks it needs; null otherwise (the
    // launch callback checks this and nothing more). Finished by writeOut's close.
    kernel_metrics::KernelMetrics* kernelMetrics = nullptr;
    void startKernelMetrics();
    // Threads named better than by their system name (threading's names): not named again by
    // what knows only the system's (the Python calls' drain, the native sampler).
    bool threadNamed(int64_t tid);
    void markThreadNamed(int64_t tid);
    // collector_launcher.cpp. When the launcher is gone: the warning that says what happened
    // and the Run record of the collector's own (false, nothing filled, otherwise).
    bool launcherGoneReport(std::string* text, RunInfo* run);
    // With the file open: writes that report (and the metadata launcher_died); true if it did.
    bool recordLauncherGone();
    // After the close: the run's process group gets SIGTERM when this process leads it (the
    // run's other processes are tied to the launcher's life too).
    void endOrphanedGroup();
    // Each tick of the flush thread: a launcher gone without the SIGTERM reaching the target
    // (its tie cleared by a set-user-ID exec): SIGTERM now (true: wait for the signal path
    // rather than flush); still running 10 s later (it handles or ignores SIGTERM): the file is
    // closed with what happened and the process killed.
    bool watchLauncher();

    // STRATA_WAIT_FOR_ATTACH (collector_attach.cpp): the process's entry in the attach folder
    // (contract/attach_registry.h), written by startThreads and the flush thread alone; empty
    // paths: not registered.
    attach::WaitingRun attachRun;
    std::string attachRunPath, attachControlPath;
    std::atomic<bool> attachCapturing{false}; // between an attach start and its stop
    void attachRegister();                    // startThreads: the entry and the metadata
    bool attachServe();             // each flush tick: a new request served (true: it flushed)
    void attachUnregister();        // the file closes: the entry goes
    void enableCaptureActivities(); // an attach start: CUPTI's capture groups on again
};

// The collector, once the first entry point created it; null before. Never destroyed: atexit
// handlers and forked children still look at it.
extern Collector* g_collector;
// g_collector, created (not started) if it was not yet.
Collector& collectorInstance();
// The library's constructor with STRATA_CPU_SAMPLE set (collector_native.cpp): native samples
// from the process's start, its recording begun once it has run a while.
void startSamplingAtLoad(const char* hz);

// Recording, and in the process that started the collector (not a child forked from it).
inline bool recording() {
    return g_collector && g_collector->state.load() == CollectorState::Recording &&
           g_collector->owner == getpid();
}

// CLOCK_MONOTONIC_RAW in ns: the clock of every record (CUPTI's timestamp callback) and of the
// capture schedule.
uint64_t CUPTIAPI clockNs();
// CLOCK_REALTIME in ns.
int64_t realtimeNs();
// A CUPTI result as its name and number: "CUPTI_ERROR_NOT_INITIALIZED (15)".
std::string cuptiErrorText(CUptiResult r);

} // namespace strata
