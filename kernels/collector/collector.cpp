#include "collector.h"

#include "activity_parser.h"
#include "api_names.h"
#include "buffer_pool.h"
#include "capture_schedule.h"
#include "collector_config.h"
#include "io/strata/strata_trace_writer.h"
#include "nvtx_events.h"
#include "other_tool.h"
#include "process_info.h"
#include "record/collector_env.h"
#include "record/output_path.h"
#include "signal_chain.h"

#include <cupti.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>
#include <semaphore.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace strata {

namespace env = collector_env;

namespace {

uint64_t CUPTIAPI clockNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

int64_t realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return int64_t(ts.tv_sec) * 1000000000ll + int64_t(ts.tv_nsec);
}

std::string cuptiErrorText(CUptiResult r) {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) s = "unknown CUPTI error";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s (%d)", s, int(r));
    return buf;
}

class Collector {
public:
    // --- state shared with callbacks (never destroyed) ---
    std::mutex initMutex;
    std::atomic<CollectorState> state{CollectorState::NotStarted};
    pid_t owner = 0;
    bool cudaInitialized = false;
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

    void start(bool fromCuda);
    void enableActivities();
    void reportSubscribeFailure(CUptiResult r, const char* oldName);
    void flushLoop();
    void closeLoop();
    void flushOnce(uint32_t cuptiFlag, bool closeFile); // drainCupti + writeOut
    void drainCupti(uint32_t cuptiFlag);
    void writeOut(bool closeFile);
    void collectDropped();
    void shutdown();
    void onNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* data);
};

Collector* g = nullptr;
std::atomic<bool> g_clockRegistered{false};
thread_local std::vector<std::string> t_nvtxStack; // push/pop names, this thread

Collector& instance() {
    static Collector* c = new Collector; // leaked on purpose: atexit and forked children use it
    g = c;
    return *c;
}

bool recording() {
    return g && g->state.load() == CollectorState::Recording && g->owner == getpid();
}

// ---- CUPTI callbacks ----------------------------------------------------------------------

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = nullptr;
    *size = 0;
    *maxNumRecords = 0;
    if (!recording()) return;
    *buffer = g->pool.acquire(); // nullptr when exhausted: CUPTI drops and counts
    *size = *buffer ? g->pool.bufferBytes() : 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    if (!g || g->owner != getpid() || g->state.load() == CollectorState::ForkedChild) return;
    {
        std::lock_guard lock(g->parserMutex);
        if (g->parser) {
            {
                std::lock_guard s(g->scheduleMutex);
                g->parser->setSchedule(g->schedule);
            }
            g->parser->parseBuffer(buffer, validSize);
        }
    }
    g->pool.release(buffer);
}

void Collector::onNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData* d) {
    const NvtxEvent e = decodeNvtxCallback(cbid, d);
    if (e.kind == NvtxEvent::None) return;
    const int64_t now = int64_t(clockNs());
    const char* name = e.name ? e.name : "";
    std::lock_guard lock(scheduleMutex);
    switch (e.kind) {
    case NvtxEvent::Push:
        t_nvtxStack.emplace_back(name);
        schedule.onRangeBegin(name, now);
        break;
    case NvtxEvent::Pop:
        if (!t_nvtxStack.empty()) {
            schedule.onRangeEnd(t_nvtxStack.back(), now);
            t_nvtxStack.pop_back();
        }
        break;
    case NvtxEvent::Mark:
        schedule.onMark(name, now);
        break;
    case NvtxEvent::Start:
        nvtxRangeNames[e.id] = name;
        schedule.onRangeBegin(name, now);
        break;
    case NvtxEvent::End: {
        auto it = nvtxRangeNames.find(e.id);
        if (it != nvtxRangeNames.end()) {
            schedule.onRangeEnd(it->second, now);
            nvtxRangeNames.erase(it);
        }
        break;
    }
    case NvtxEvent::None:
        break;
    }
}

// cudaProfilerStart/Stop (or the driver's cuProfilerStart/Stop): a capture range opens when a
// start returns and closes when a stop is called, so the calls themselves stay outside.
bool onProfilerApi(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API,
               driver = domain == CUPTI_CB_DOMAIN_DRIVER_API;
    const bool start = (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000) ||
                       (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    const bool stop = (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000) ||
                      (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    if (!start && !stop) return false;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (!info) return true;
    const int64_t now = int64_t(clockNs());
    std::lock_guard lock(g->scheduleMutex);
    if (start && info->callbackSite == CUPTI_API_EXIT) g->schedule.onProfilerStart(now);
    if (stop && info->callbackSite == CUPTI_API_ENTER) g->schedule.onProfilerStop(now);
    return true;
}

void CUPTIAPI apiCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* data) {
    if (!recording()) return;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        g->onNvtx(cbid, static_cast<const CUpti_NvtxData*>(data));
        return;
    }
    if (onProfilerApi(domain, cbid, data)) return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
        const auto* info = static_cast<const CUpti_CallbackData*>(data);
        // The device's records go away with it: take them now.
        if (info && info->callbackSite == CUPTI_API_ENTER)
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
               cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        // The runtime may tear its context down (its own atexit) before ours runs.
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    } else if (domain == CUPTI_CB_DOMAIN_STATE && cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
        const auto* s = static_cast<const CUpti_StateData*>(data);
        std::string text = "CUPTI stopped profiling after a fatal error";
        if (s && s->notification.message) text += std::string(": ") + s->notification.message;
        g->writer.warning(text);
    }
}

// ---- exit, signals, fork --------------------------------------------------------------------

void atExit() {
    collectorShutdown();
}

void forkPrepare() {
    if (!g || g->owner != getpid()) return;
    g->flushMutex.lock();
    g->parserMutex.lock();
}
void forkParent() {
    if (!g || g->owner != getpid()) return;
    g->parserMutex.unlock();
    g->flushMutex.unlock();
}
void forkChild() {
    // The child inherited CUPTI's and our memory but none of the threads: touching CUPTI or the
    // writer here could deadlock or corrupt the parent's file. Leave both alone for good; the
    // mutexes stay locked and are never used again in this process.
    if (!g) return;
    g->state.store(CollectorState::ForkedChild);
}

// Waits (async-signal-safe calls only) until `done` differs from `before`, for at most `ms`.
bool waitChange(const std::atomic<int>& done, int before, int ms) {
    for (int i = 0; i < ms && done.load() == before; ++i) {
        timespec ts{0, 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
    return done.load() != before;
}

void onSignal(int, bool willDie) {
    if (!recording()) return;
    if (currentThreadId() == g->flusherTid.load()) return; // the flush thread itself crashed
    // The flush thread asks CUPTI for its buffers and closes the file. CUPTI's flush can need a
    // lock the interrupted thread holds (it was inside CUPTI, or in our completion callback):
    // then the flush thread cannot finish while this handler waits, so the wait is short.
    const int served = g->signalServed.load();
    g->signalRequest.store(willDie ? 2 : 1);
    sem_post(&g->wake);
    if (waitChange(g->signalServed, served, 100) || !willDie) return;
    // The process is about to end: the closer writes what is already buffered and the
    // end-of-file record without calling into CUPTI, waiting for no lock longer than ~80 ms.
    const int closed = g->emergencyServed.load();
    sem_post(&g->emergencyWake);
    waitChange(g->emergencyServed, closed, 100);
}

// ---- the collector --------------------------------------------------------------------------

void Collector::reportSubscribeFailure(CUptiResult r, const char* oldName) {
    std::string text = cuptiErrorText(r);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || r == CUPTI_ERROR_MAX_LIMIT_REACHED)
        text += ": CUPTI is already in use; likely " +
                likelyOtherTool(oldName, reinterpret_cast<const void*>(&collectorStart));
    writer.metadata(env::kMetaCuptiError, text);
    writer.warning("collection disabled: " + text);
    std::fprintf(stderr, "[strata] collection disabled: %s\n", text.c_str());
}

// The activity kinds the collector enables: group 0 always (device properties, overhead),
// the others with their capture group; those are disabled again when the schedule is over.
struct ActivityKind {
    CUpti_ActivityKind kind;
    uint32_t group;
    const char* name;
};
constexpr ActivityKind kActivityKinds[] = {
    {CUPTI_ACTIVITY_KIND_DEVICE, 0, "DEVICE"},
    {CUPTI_ACTIVITY_KIND_CONTEXT, 0, "CONTEXT"},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, 0, "OVERHEAD"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, kCaptureApi, "RUNTIME"},
    {CUPTI_ACTIVITY_KIND_DRIVER, kCaptureApi, "DRIVER"},
    {CUPTI_ACTIVITY_KIND_MARKER, kCaptureNvtx, "MARKER"},
    {CUPTI_ACTIVITY_KIND_MARKER_DATA, kCaptureNvtx, "MARKER_DATA"}, // colours
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kCaptureKernels, "CONCURRENT_KERNEL"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, kCaptureMemcpy, "MEMCPY"},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, kCaptureMemcpy, "MEMCPY2"}, // peer-to-peer copies
    {CUPTI_ACTIVITY_KIND_MEMSET, kCaptureMemset, "MEMSET"},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, kCaptureSync, "SYNCHRONIZATION"},
    {CUPTI_ACTIVITY_KIND_CUDA_EVENT, kCaptureSync, "CUDA_EVENT"},
    {CUPTI_ACTIVITY_KIND_MEMORY2, kCaptureMemory, "MEMORY2"},
};

void Collector::enableActivities() {
    std::string enabled;
    for (const ActivityKind& k : kActivityKinds) {
        if (k.group && !(config.capture & k.group)) continue;
        const CUptiResult r = cuptiActivityEnable(k.kind);
        if (r != CUPTI_SUCCESS) {
            writer.warning(std::string("CUPTI activity ") + k.name +
                           " not enabled: " + cuptiErrorText(r));
            continue;
        }
        enabled += (enabled.empty() ? "" : ",") + std::string(k.name);
    }
    writer.metadata("cupti_activities", enabled);
    if (config.capture & kCaptureApi) {
        // Noisy getters: not recorded at the source (the parser also drops any that slip through).
        std::string filtered;
        for (uint32_t id : names.noisyRuntimeIds()) {
            cuptiActivityEnableRuntimeApi(id, 0);
            filtered += (filtered.empty() ? "" : ",") + names.runtimeName(id);
        }
        for (uint32_t id : names.noisyDriverIds()) {
            cuptiActivityEnableDriverApi(id, 0);
            filtered += (filtered.empty() ? "" : ",") + names.driverName(id);
        }
        writer.metadata("filtered_apis", filtered);
    }
    if (config.capture & kCaptureSync) cuptiActivityEnableCudaEventDeviceTimestamps(1);
}

void Collector::start(bool fromCuda) {
    std::lock_guard lock(initMutex);
    if (fromCuda && !cudaInitialized && state.load() != CollectorState::NotStarted &&
        owner == getpid()) {
        cudaInitialized = true;
        if (state.load() == CollectorState::Recording || state.load() == CollectorState::Disabled)
            writer.metadata(env::kMetaCudaInitialized, "1");
        return;
    }
    if (state.load() != CollectorState::NotStarted) return;
    owner = getpid();
    cudaInitialized = fromCuda;
    config = readCollectorConfig([](const char* n) { return std::getenv(n); });

    std::string error;
    if (!writer.open(config.outputPath, &error)) {
        std::fprintf(stderr, "[strata] cannot write the trace %s: %s; the program runs untraced\n",
                     config.outputPath.c_str(), error.c_str());
        state.store(CollectorState::Disabled);
        return;
    }
    const int64_t pid = getpid();
    const OutputPathValues values = currentProcessValues();
    writer.metadata("producer", "strata_collector");
    writer.metadata(env::kMetaCudaInitialized, fromCuda ? "1" : "0");
    writer.metadata(env::kMetaPid, std::to_string(pid));
    writer.metadata(env::kMetaHost, values.host);
    writer.metadata(env::kMetaRank, rankFromEnvironment());
    writer.metadata(env::kMetaCommandLine, commandLine());
    writer.metadata("clock", "CLOCK_MONOTONIC_RAW");
    const int64_t mono = int64_t(clockNs());
    writer.metadata("clock_realtime_offset_ns", std::to_string(realtimeNs() - mono));
    writer.metadata("output_template", config.outputTemplate);
    writer.process(pid, processName());
    writer.thread(pid, currentThreadId(), threadName(currentThreadId()));
    for (const auto& w : config.warnings) writer.warning(w);

    {
        std::lock_guard s(scheduleMutex);
        schedule = CaptureSchedule(config.schedule, mono);
    }

    // One clock for every record, registered once per process (re-registering corrupts
    // timestamps, pytorch#192021) and before any activity kind is enabled.
    if (!g_clockRegistered.exchange(true)) {
        const CUptiResult r = cuptiActivityRegisterTimestampCallback(clockNs);
        if (r != CUPTI_SUCCESS) {
            writer.warning("CUPTI timestamp callback not registered (" + cuptiErrorText(r) +
                           "): GPU times are on CUPTI's default clock");
            writer.metadata("clock", "CUPTI default (CLOCK_REALTIME)");
        }
    }
    cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);

    char oldName[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN * 2] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "Strata";
    params.oldSubscriberName = oldName;
    params.oldSubscriberSize = sizeof oldName;
    const CUptiResult sub = cuptiSubscribe_v2(&subscriber, apiCallback, nullptr, &params);
    if (sub != CUPTI_SUCCESS) {
        reportSubscribeFailure(sub, oldName);
        state.store(CollectorState::Disabled);
        writer.flush();
        std::atexit(atExit);
        return;
    }

    pool.configure(config.bufferBytes, config.bufferCount, config.bufferPreallocate);
    names.build();
    parser = new ActivityParser(writer, names, config.capture);
    const CUptiResult reg = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (reg != CUPTI_SUCCESS) {
        reportSubscribeFailure(reg, nullptr);
        cuptiUnsubscribe(subscriber);
        state.store(CollectorState::Disabled);
        writer.flush();
        std::atexit(atExit);
        return;
    }
    const bool needNvtxCallbacks = config.schedule.scheduleEnabled() || config.schedule.nvtxRange();
    if (needNvtxCallbacks) {
        const CUptiResult r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
        if (r != CUPTI_SUCCESS)
            writer.warning("NVTX callbacks unavailable (" + cuptiErrorText(r) +
                           "): the schedule and capture range cannot see steps");
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                        CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    if (config.schedule.profilerApiRange()) {
        // The runtime's calls go through the driver's: both are seen, the driver's are enough
        // for programs that call the driver API alone.
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                            CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                            CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR);
    enableActivities();
    if (!std::getenv(env::kNvtxInjection) && (config.capture & kCaptureNvtx))
        writer.metadata("nvtx", "not captured: NVTX_INJECTION64_PATH is not set");

    char buf[64];
    std::snprintf(buf, sizeof buf, "%zu x %zu bytes", config.bufferCount, config.bufferBytes);
    writer.metadata("cupti_buffers", buf);
    writer.flush();

    sem_init(&wake, 0, 0); // before any signal handler can post them
    sem_init(&emergencyWake, 0, 0);
    state.store(CollectorState::Recording);
    std::atexit(atExit);
    pthread_atfork(forkPrepare, forkParent, forkChild);
    installSignalChain(onSignal);
    flusher = std::thread([this] { flushLoop(); });
    closer = std::thread([this] { closeLoop(); });
    closer.detach(); // idle until a fatal signal; never joined
}

void Collector::closeLoop() {
    sigset_t block;
    sigfillset(&block);
    pthread_sigmask(SIG_BLOCK, &block, nullptr);
    while (sem_wait(&emergencyWake) != 0 && errno == EINTR) {
    }
    using namespace std::chrono_literals;
    if (!shutDown.exchange(true)) {
        // The parser's pending records (open NVTX ranges) if its lock is free soon; CUPTI's
        // own buffers are left alone.
        if (parserMutex.try_lock_for(30ms)) {
            if (parser) parser->finish();
            parserMutex.unlock();
        }
        writer.closeWithin(50ms, "closed on a fatal signal without CUPTI's last buffers (the "
                                 "flush could not run while the interrupted thread held a lock)");
        state.store(CollectorState::ShutDown);
    }
    emergencyServed.fetch_add(1);
}

void Collector::collectDropped() {
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS)
        droppedTotal += dropped;
}

void Collector::flushOnce(uint32_t cuptiFlag, bool closeFile) {
    drainCupti(cuptiFlag);
    writeOut(closeFile);
}

void Collector::drainCupti(uint32_t cuptiFlag) {
    cuptiActivityFlushAll(cuptiFlag); // completion callbacks run (parser lock), not under ours
    collectDropped();                 // outside our locks (Kineto: ABBA with CUPTI's lock)
}

void Collector::writeOut(bool closeFile) {
    std::lock_guard lock(flushMutex);
    if (closeFile) {
        {
            std::lock_guard p(parserMutex);
            if (parser) {
                parser->finish();
                const ParserStats& st = parser->stats();
                writer.metadata("records_parsed", std::to_string(st.records));
                writer.metadata("records_written", std::to_string(st.written));
                writer.metadata("records_outside_capture", std::to_string(st.outsideCapture));
            }
        }
        writer.metadata("cupti_dropped_records", std::to_string(droppedTotal.load()));
        if (droppedTotal > 0)
            writer.warning("CUPTI dropped " + std::to_string(droppedTotal.load()) +
                           " records (activity buffers full); raise STRATA_BUFFER_SIZE");
        if (pool.refusals() > 0)
            writer.warning("the buffer pool refused " + std::to_string(pool.refusals()) +
                           " CUPTI buffer requests (all " + std::to_string(pool.allocated()) +
                           " in use)");
        writer.close();
    } else {
        writer.flush();
    }
}

void Collector::flushLoop() {
    flusherTid.store(currentThreadId());
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, nullptr);
    for (;;) {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        const int64_t ns = until.tv_nsec + int64_t(config.flushMs) * 1000000;
        until.tv_sec += ns / 1000000000;
        until.tv_nsec = ns % 1000000000;
        while (sem_timedwait(&wake, &until) != 0 && errno == EINTR) {
        }
        if (stopThread.load()) return;
        if (const int req = signalRequest.exchange(0)) {
            if (req == 2 && !shutDown.load()) {
                drainCupti(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
                // The closer may have closed the file while CUPTI's flush was blocked.
                if (!shutDown.exchange(true)) {
                    writeOut(true);
                    state.store(CollectorState::ShutDown);
                }
            } else if (req == 1) {
                flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, false);
            }
            signalServed.fetch_add(1);
            if (req == 2) return;
            continue;
        }
        if (state.load() != CollectorState::Recording) return;
        bool finished = false;
        {
            std::lock_guard s(scheduleMutex);
            finished = schedule.finished(int64_t(clockNs()));
        }
        if (finished && !captureStopped.exchange(true)) {
            // Nothing later can be kept: stop paying for CUPTI.
            for (const ActivityKind& k : kActivityKinds)
                if (k.group) cuptiActivityDisable(k.kind);
            writer.metadata("capture_stopped", "schedule finished or STRATA_DURATION_S reached");
            flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, false);
            continue;
        }
        flushOnce(0, false);
    }
}

void Collector::shutdown() {
    if (owner != getpid()) return;
    const CollectorState s = state.load();
    if (s == CollectorState::ForkedChild || s == CollectorState::NotStarted) return;
    if (shutDown.exchange(true)) return;
    if (flusher.joinable()) {
        stopThread.store(true);
        sem_post(&wake);
        flusher.join();
    }
    if (s == CollectorState::Disabled) {
        std::lock_guard lock(flushMutex);
        writer.close();
    } else {
        flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, true);
    }
    state.store(CollectorState::ShutDown);
}

} // namespace

void collectorStart(bool cudaInitialized) {
    const char* inj = std::getenv(env::kCudaInjection);
    if (cudaInitialized && inj && std::strcmp(inj, "none") == 0) return;
    instance().start(cudaInitialized);
}

CollectorState collectorState() {
    if (!g) return CollectorState::NotStarted;
    if (g->owner != getpid() && g->state.load() != CollectorState::NotStarted)
        return CollectorState::ForkedChild;
    return g->state.load();
}

bool collectorFlushNow() {
    if (!recording()) return false;
    g->flushOnce(0, false);
    return true;
}

void collectorShutdown() {
    if (g) g->shutdown();
}

void collectorWarning(const char* text) {
    if (g && g->owner == getpid() && g->state.load() != CollectorState::ForkedChild &&
        g->state.load() != CollectorState::NotStarted && text)
        g->writer.warning(text);
}

} // namespace strata
