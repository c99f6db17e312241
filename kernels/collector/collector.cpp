// The collector's lifecycle: start (subscribe to CUPTI, enable the activity kinds, open the trace),
// the flush thread that writes a chunk every STRATA_FLUSH_MS and serves signal requests, the
// closer thread that ends the file on a fatal signal without CUPTI, and shutdown; and the entry
// points of collector.h. What CUPTI calls back is in collector_callbacks.cpp, the exit, fork and
// signal hooks in process_hooks.cpp.
#include "collector.h"

#include "collector_callbacks.h"
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "contract/process_ancestry.h"
#include "gpu_metrics/gpu_metrics.h"
#include "kernel_metrics/kernel_metrics.h"
#include "native/native_sampler.h"
#include "process/other_tool.h"
#include "process/process_hooks.h"
#include "process/process_info.h"

#include <cupti.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <string>

namespace strata {

namespace env = collector_env;

Collector* g_collector = nullptr;

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

namespace {

// CUPTI is subscribed when CUDA or NVTX start the collector, not when Python or the library's
// load do: a program that never touches CUDA records without loading it.
bool bringsCuda(StartedBy by) {
    return by == StartedBy::Cuda || by == StartedBy::Nvtx;
}

} // namespace

Collector& collectorInstance() {
    // Leaked on purpose: atexit and forked children use it. A forked child that records (its
    // Python did, collectorRestartInForkedChild) has an instance of its own.
    static Collector* first = new Collector;
    if (!g_collector) g_collector = first;
    return *g_collector;
}

void Collector::start(StartedBy by) {
    std::lock_guard lock(initMutex);
    if (state.load() != CollectorState::NotStarted) {
        if (owner != getpid()) return;
        if (by == StartedBy::Cuda && !cudaInitialized) {
            cudaInitialized = true;
            if (state.load() == CollectorState::Recording ||
                state.load() == CollectorState::Disabled)
                writer.metadata(env::kMetaCudaInitialized, "1");
        }
        // Python (or the library's load) started the recording; CUDA (or NVTX) comes now.
        if (bringsCuda(by) && state.load() == CollectorState::Recording && !cuptiStarted)
            startCupti();
        return;
    }
    owner = getpid();
    cudaInitialized = by == StartedBy::Cuda;
    config = readCollectorConfig([](const char* n) { return std::getenv(n); });
    if (!openTrace(by)) return;
    if (bringsCuda(by) && !startCupti()) {
        state.store(CollectorState::Disabled);
        writer.flush();
        std::atexit(atExit);
        return;
    }
    startThreads();
}

bool Collector::openTrace(StartedBy by) {
    // Never over another recording's file (io/strata/strata_file_create.h): created exclusively,
    // or with --force after removing a finished one.
    std::string error;
    const CreateMode mode = config.overwrite ? CreateMode::ReplaceFinished : CreateMode::Exclusive;
    if (!writer.open(config.outputPath, &error, mode)) {
        std::fprintf(stderr, "[strata] cannot write the trace %s: %s; the program runs untraced\n",
                     config.outputPath.c_str(), error.c_str());
        state.store(CollectorState::Disabled);
        return false;
    }
    tie = tieToLauncher(std::getenv(env::kLauncherPid));
    const int64_t pid = getpid();
    const OutputPathValues values = currentProcessValues();
    writer.metadata("producer", "strata_collector");
    writer.metadata(env::kMetaCudaInitialized, by == StartedBy::Cuda ? "1" : "0");
    writer.metadata(env::kMetaPid, std::to_string(pid));
    writer.metadata(env::kMetaHost, values.host);
    writer.metadata(env::kMetaRank, rankFromEnvironment());
    writer.metadata(env::kMetaCommandLine, commandLine());
    writer.metadata("clock", "CLOCK_MONOTONIC_RAW");
    const int64_t mono = int64_t(clockNs());
    writer.metadata("clock_realtime_offset_ns", std::to_string(realtimeNs() - mono));
    writer.metadata("output_template", config.outputTemplate);
    if (const char* runId = std::getenv(env::kRunId); runId && *runId)
        writer.metadata(env::kMetaRunId, runId);
    // Beside the run id, what cannot be copied with it: who this process descends from.
    writer.metadata(env::kMetaAncestry, processAncestry());
    writer.process(pid, processName());
    // The thread that started it (a sampler's own when the library's load did: not named).
    if (by != StartedBy::Load) writer.thread(pid, currentThreadId(), threadName(currentThreadId()));
    for (const auto& w : config.warnings) writer.warning(w);
    // The run id on disk at once: the launcher finds this file as its run's even if the process
    // dies before the first timed flush.
    writer.flush();

    std::lock_guard s(scheduleMutex);
    schedule = CaptureSchedule(config.schedule, mono);
    return true;
}

void Collector::startThreads() {
    sem_init(&wake, 0, 0); // before any signal handler can post them
    sem_init(&emergencyWake, 0, 0);
    state.store(CollectorState::Recording);
    std::atexit(atExit);
    installForkAndSignalHooks();
    attachRegister(); // --wait-for-attach: before the flush thread serves its requests
    if (const char* hz = std::getenv(env::kCpuSample); hz && *hz) startNativeSampler(hz);
    flusher = std::thread([this] { flushLoop(); });
    closer = std::thread([this] { closeLoop(); });
    closer.detach(); // idle until a fatal signal; never joined
}

void Collector::closeLoop() {
    native::markCollectorThread();
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
        if (beforeWrite) beforeWrite(true); // lock-free but for the thread list
        attachUnregister();
        std::string warning = "closed on a fatal signal without CUPTI's last buffers (the flush "
                              "could not run while the interrupted thread held a lock)";
        std::string orphanText;
        RunInfo orphan;
        const bool orphaned = launcherGoneReport(&orphanText, &orphan);
        if (orphaned) warning += "; " + orphanText;
        writer.closeWithin(50ms, warning, orphaned ? &orphan : nullptr);
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
    if (!cuptiStarted) return;        // a Python-only run: CUPTI was never loaded
    cuptiActivityFlushAll(cuptiFlag); // completion callbacks run (parser lock), not under ours
    collectDropped();                 // outside our locks (Kineto: ABBA with CUPTI's lock)
    // --gpu-metrics: the PM samples so far.
    if (gpuMetrics) gpuMetrics->decode();
}

void Collector::writeOut(bool closeFile) {
    std::lock_guard lock(flushMutex);
    if (closeFile) stopNativeSampler(); // its last samples in this chunk
    // PM sampling ends after CUPTI's last activity flush (drainCupti ran before this).
    if (closeFile && gpuMetrics) gpuMetrics->finish();
    if (closeFile && kernelMetrics) kernelMetrics->finish();
    if (beforeWrite) beforeWrite(closeFile);
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
        writer.metadata(env::kMetaDroppedRecords, std::to_string(droppedTotal.load()));
        if (droppedTotal > 0)
            writer.warning("CUPTI dropped " + std::to_string(droppedTotal.load()) +
                           " records (activity buffers full); raise STRATA_BUFFER_SIZE");
        if (pool.refusals() > 0)
            writer.warning("the buffer pool refused " + std::to_string(pool.refusals()) +
                           " CUPTI buffer requests (all " + std::to_string(pool.allocated()) +
                           " in use)");
        const bool orphaned = recordLauncherGone();
        attachUnregister();
        writer.close();
        if (orphaned && fatalSignal.load() != 0) endOrphanedGroup();
    } else {
        if (config.live && droppedTotal.load() != droppedWritten) {
            droppedWritten = droppedTotal.load();
            writer.metadata(env::kMetaDroppedRecords, std::to_string(droppedWritten));
        }
        if (!writer.flush() && !writeFailureSaid) {
            // A full disk (or a file gone): said once; the program goes on, no longer traced.
            writeFailureSaid = true;
            std::fprintf(stderr, "[strata] %s; the program goes on, but nothing more is recorded\n",
                         writer.lastError().c_str());
        }
    }
}

void Collector::flushLoop() {
    flusherTid.store(currentThreadId());
    native::markCollectorThread();
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
        if (watchLauncher()) continue;
        if (attachServe()) continue; // an attach stop flushed already
        bool finished = false;
        {
            std::lock_guard s(scheduleMutex);
            finished = schedule.finished(int64_t(clockNs()));
        }
        if (finished && !captureStopped.exchange(true)) {
            // Nothing later can be kept: stop paying for CUPTI.
            disableCaptureActivities();
            writer.metadata("capture_stopped", "schedule finished or STRATA_DURATION_S reached");
            flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, false);
            continue;
        }
        // Live: CUPTI's unfinished buffers too, so the file is never a flush behind.
        flushOnce(config.live ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0, false);
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
        recordLauncherGone();
        writer.close();
    } else {
        flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, true);
    }
    state.store(CollectorState::ShutDown);
}

void collectorStart(StartedBy by) {
    const char* inj = std::getenv(env::kCudaInjection);
    if (by == StartedBy::Cuda && inj && std::strcmp(inj, "none") == 0) return;
    collectorInstance().start(by);
}

bool collectorRestartInForkedChild() {
    Collector* parent = g_collector;
    if (!parent || parent->owner == getpid() || parent->state.load() == CollectorState::NotStarted)
        return false;
    // The parent's file is the parent's: the child's copy of its descriptor is closed (it
    // shares the parent's flock), nothing written, no lock taken (another thread may have held
    // one at the fork).
    parent->writer.abandonInForkedChild();
    g_collector = new Collector;
    g_collector->start(StartedBy::Python);
    return g_collector->state.load() == CollectorState::Recording;
}

CollectorState collectorState() {
    if (!g_collector) return CollectorState::NotStarted;
    if (g_collector->owner != getpid() && g_collector->state.load() != CollectorState::NotStarted)
        return CollectorState::ForkedChild;
    return g_collector->state.load();
}

bool collectorFlushNow() {
    if (!recording()) return false;
    g_collector->flushOnce(0, false);
    return true;
}

void collectorShutdown() {
    if (g_collector) g_collector->shutdown();
}

void collectorWarning(const char* text) {
    if (g_collector && g_collector->owner == getpid() &&
        g_collector->state.load() != CollectorState::ForkedChild &&
        g_collector->state.load() != CollectorState::NotStarted && text)
        g_collector->writer.warning(text);
}

} // namespace strata
