// The collector's real code (kernels/collector), built against the stand-in CUPTI
// (tests/fake_cupti), driven scenario by scenario in child processes (collector_harness) and
// read back with loadTrace. Expected values are the records the harness feeds (see
// collector_harness.cpp), worked through by hand: e.g. a runtime call [1000, 5000) ns with
// correlation 7 launches a kernel [10000, 25000) ns with correlation 7.
#include "support/collector_fixture.h"
#include "support/test_main.h"

class TestCollector : public QObject, public CollectorFiles {
    Q_OBJECT
private slots:
    void initTestCase();
    void exportsEntryPoints();
    void basicRecording();
    void subscriberTaken();
    void nvtxOnlyProcess();
    void schedule();
    void captureRange();
    void profilerApiRange();
    void badOptionsAreWarnings();
    void unwritableOutputKeepsTargetRunning();
    void launcherContract();
    void teardownForcesFlush();
    void throughput();
    void graphLaunchOneToMany();
    void maximumDuration();
    void clockSkewCounted();
    void sectionsHandOver();
};

void TestCollector::initTestCase() {
    QVERIFY(dir_.isValid());
}

void TestCollector::exportsEntryPoints() {
    // The real library (linked to libcupti): the driver and NVTX find these by name.
    // Kept loaded (RTLD_NODELETE, no dlclose): libcupti's static allocations stay reachable.
    void* h = dlopen(STRATA_COLLECTOR_SO, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) QSKIP(qPrintable(QString("cannot dlopen the collector here: %1").arg(dlerror())));
    QVERIFY(dlsym(h, "InitializeInjection"));
    QVERIFY(dlsym(h, "InitializeInjectionNvtx2"));
    QVERIFY(!dlsym(h, "_ZN6strata17StrataTraceWriter5flushEv")); // internals stay hidden
}

void TestCollector::basicRecording() {
    const QString file = path("basic.strata");
    const Run r = runHarness("basic", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    // What the collector asked of CUPTI.
    QCOMPARE(r.out.value("state"), QString("1"));
    QCOMPARE(r.out.value("subscribe_calls"), QString("1")); // InitializeInjection twice: idempotent
    QCOMPARE(r.out.value("timestamp_registrations"), QString("1"));
    QCOMPARE(r.out.value("kernel_enabled"), QString("1"));
    QCOMPARE(r.out.value("serial_kernel_enabled"), QString("0")); // never KIND_KERNEL (serializes)
    QCOMPARE(r.out.value("memory2_enabled"), QString("1"));
    QCOMPARE(r.out.value("peer_copy_enabled"), QString("1"));
    QCOMPARE(r.out.value("marker_enabled"), QString("1"));
    QCOMPARE(r.out.value("cudaGetDevice_enabled"), QString("0"));
    QCOMPARE(r.out.value("cuCtxGetCurrent_enabled"), QString("0"));
    QCOMPARE(r.out.value("cudaLaunchKernel_enabled"), QString("1"));
    QCOMPARE(r.out.value("thread_id_type"), QString("1")); // CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM
    QCOMPARE(r.out.value("nvtx_domain_enabled"), QString("0")); // no schedule: no callbacks

    auto t = load(file);
    QVERIFY(t);
    const int64_t pid = r.pid, tid = r.pid; // the harness records from its main thread
    QCOMPARE(meta(*t, "cuda_initialized"), QString("1"));
    QCOMPARE(meta(*t, "pid"), QString::number(pid));
    QCOMPARE(meta(*t, "clock"), QString("CLOCK_MONOTONIC_RAW"));
    QCOMPARE(meta(*t, "cupti_dropped_records"), QString("12"));
    QVERIFY(meta(*t, "command_line").contains("collector_harness basic"));
    QVERIFY(hasWarning(*t, "CUPTI dropped 12 records"));
    QVERIFY(hasWarning(*t, "2 CUPTI records had invalid timestamps"));
    QVERIFY(hasWarning(*t, "1 NVTX ranges never ended"));
    QVERIFY(!hasWarning(*t, "no end-of-file record"));

    // Device properties.
    QCOMPARE(t->devices().size(), size_t(1));
    const DeviceInfo& d = t->devices()[0];
    QCOMPARE(d.id, 0);
    QCOMPARE(QString::fromStdString(d.name), QString("NVIDIA H100 80GB HBM3"));
    QCOMPARE(d.smCount, 132);
    QCOMPARE(d.totalMemoryBytes, int64_t(85899345920));
    QCOMPARE(d.computeMajor, 9);
    QCOMPARE(d.clockRateKHz, int64_t(1980000));

    // API calls on the CPU thread; the noisy getter is not there.
    QVERIFY(slicesNamed(*t, "cudaGetDevice").empty());
    const SliceRef launch = only(*t, "cudaLaunchKernel");
    QVERIFY(launch.valid());
    QCOMPARE(t->track(launch.track).kind, TrackKind::Thread);
    QCOMPARE(t->track(launch.track).pid, pid);
    QCOMPARE(t->track(launch.track).tid, tid);
    QCOMPARE(t->start(launch), int64_t(1000));
    QCOMPARE(t->duration(launch), int64_t(4000));
    QCOMPARE(t->kind(launch), SliceKind::CudaRuntime);
    QCOMPARE(t->extra(launch)->correlation, int64_t(7));
    const SliceRef drv = only(*t, "cuLaunchKernel");
    QVERIFY(drv.valid());
    QCOMPARE(t->kind(drv), SliceKind::CudaDriver);
    QCOMPARE(t->start(drv), int64_t(2000));
    QVERIFY(!t->extra(drv) || t->extra(drv)->correlation == -1); // one link per kernel, not two
    QCOMPARE(slicesNamed(*t, "cudaMemcpyAsync").size(), size_t(2));

    // The kernel, its fields and its launch.
    const SliceRef k = only(*t, "square(float*, int)");
    QVERIFY(k.valid());
    QCOMPARE(t->track(k.track).kind, TrackKind::GpuStream);
    QCOMPARE(t->track(k.track).device, 0);
    QCOMPARE(t->track(k.track).tid, int64_t(7));
    QCOMPARE(t->start(k), int64_t(10000));
    QCOMPARE(t->duration(k), int64_t(15000));
    QCOMPARE(t->kind(k), SliceKind::Kernel);
    const GpuActivity* g = t->gpu(k);
    QVERIFY(g);
    QCOMPARE(g->context, int64_t(1));
    QCOMPARE(g->stream, int64_t(7));
    QCOMPARE(g->grid, (std::array<int32_t, 3>{4, 2, 1}));
    QCOMPARE(g->block, (std::array<int32_t, 3>{256, 1, 1}));
    QCOMPARE(g->registersPerThread, 32);
    QCOMPARE(g->staticSharedBytes, 1024);
    QCOMPARE(g->dynamicSharedBytes, 2048);
    QCOMPARE(g->graphId, int64_t(-1));
    QCOMPARE(t->launchOf(k), launch);

    // Copies: pageable vs pinned, from the raw CUPTI memory kinds.
    const SliceRef h2d = only(*t, "Memcpy HtoD (Pageable -> Device)");
    QVERIFY(h2d.valid());
    QCOMPARE(t->start(h2d), int64_t(32000));
    QCOMPARE(t->gpu(h2d)->bytes, int64_t(1048576));
    QCOMPARE(int(t->gpu(h2d)->copyKind), 1);
    QCOMPARE(int(t->gpu(h2d)->srcMemory), 1); // PAGEABLE
    QCOMPARE(int(t->gpu(h2d)->dstMemory), 3); // DEVICE
    QCOMPARE(t->start(t->launchOf(h2d)), int64_t(30000));
    const SliceRef d2h = only(*t, "Memcpy DtoH (Device -> Pinned)");
    QVERIFY(d2h.valid());
    QCOMPARE(int(t->gpu(d2h)->dstMemory), 2); // PINNED
    QCOMPARE(t->gpu(d2h)->bytes, int64_t(4096));
    QCOMPARE(t->start(t->launchOf(d2h)), int64_t(40000));
    const SliceRef peer = only(*t, "Memcpy PtoP (Device 0 -> Device 1)");
    QVERIFY(peer.valid());
    QCOMPARE(t->kind(peer), SliceKind::Memcpy);
    QCOMPARE(t->track(peer.track).device, 0);
    QCOMPARE(t->track(peer.track).tid, int64_t(7));
    QCOMPARE(t->start(peer), int64_t(52000));
    QCOMPARE(t->duration(peer), int64_t(1000));
    QCOMPARE(t->gpu(peer)->bytes, int64_t(2097152));
    QCOMPARE(int(t->gpu(peer)->copyKind), 10); // PTOP
    QCOMPARE(int(t->gpu(peer)->srcMemory), 3);
    QCOMPARE(int(t->gpu(peer)->dstMemory), 3);
    QCOMPARE(t->start(t->launchOf(peer)), int64_t(51000));
    const SliceRef peerLaunch = t->launchOf(peer);
    QCOMPARE(QString::fromUtf8(t->str(t->track(peerLaunch.track).slices.name[peerLaunch.index])),
             QString("cudaMemcpyPeerAsync"));
    const SliceRef ms = only(*t, "Memset (Device)");
    QVERIFY(ms.valid());
    QCOMPARE(t->gpu(ms)->bytes, int64_t(256));
    QCOMPARE(t->kind(ms), SliceKind::Memset);
    const SliceRef sync = only(*t, "Stream Sync");
    QVERIFY(sync.valid());
    QCOMPARE(t->kind(sync), SliceKind::Synchronization);
    QCOMPARE(t->track(sync.track).device, 0); // context 1 -> device 0, learnt from the kernel
    QCOMPARE(t->duration(sync), int64_t(1000));

    // NVTX: nesting on the thread, a mark, a cross-thread range, an end that came first.
    const SliceRef outer = only(*t, "outer"), inner = only(*t, "inner");
    QVERIFY(outer.valid() && inner.valid());
    QCOMPARE(t->kind(outer), SliceKind::UserAnnotation);
    QCOMPARE(t->start(outer), int64_t(100));
    QCOMPARE(t->duration(outer), int64_t(800));
    QCOMPARE(t->duration(inner), int64_t(100));
    QCOMPARE(inner.track, outer.track);
    QCOMPARE(int(t->track(inner.track).slices.depth[inner.index]), 1);
    QCOMPARE(t->track(inner.track).slices.parent[inner.index], outer.index);
    const SliceRef async = only(*t, "async");
    QVERIFY(async.valid());
    QCOMPARE(t->track(async.track).kind, TrackKind::Async);
    QCOMPARE(t->start(async), int64_t(400));
    QCOMPARE(t->duration(async), int64_t(400));
    const SliceRef early = only(*t, "early end");
    QVERIFY(early.valid());
    QCOMPARE(t->start(early), int64_t(650));
    QCOMPARE(t->duration(early), int64_t(50));
    QVERIFY(slicesNamed(*t, "never ended").empty());
    QCOMPARE(t->instantCount(), size_t(1)); // "tick"
    // Their colours, by name.
    std::map<std::string, uint32_t> colors;
    for (const auto& [name, argb] : t->nameColors()) colors[std::string(t->str(name))] = argb;
    const std::map<std::string, uint32_t> expectedColors{
        {"outer", 0xff76b900}, {"tick", 0xffff0000}, {"early end", 0xff0000ff}};
    QCOMPARE(colors, expectedColors);

    // CUPTI overhead on its thread.
    const SliceRef ov = only(*t, "CUPTI overhead: buffer flush");
    QVERIFY(ov.valid());
    QCOMPARE(t->kind(ov), SliceKind::Overhead);
    QCOMPARE(t->duration(ov), int64_t(500));

    // Memory counter: +1 MiB at 900, +2 MiB at 950, -1 MiB at 47000.
    const Track* mem = nullptr;
    for (const Track& tr : t->tracks())
        if (tr.kind == TrackKind::Counter && t->str(tr.name) == "GPU 0 memory allocated (bytes)")
            mem = &tr;
    QVERIFY(mem);
    QCOMPARE(mem->counter.size(), size_t(3));
    QCOMPARE(mem->counter.ts, (Column<TimeNs>{900, 950, 47000}));
    QCOMPARE(mem->counter.value, (Column<double>{1048576, 3145728, 2097152}));

    // Thread and process names from /proc.
    const Thread* th = t->thread(pid, tid);
    QVERIFY(th);
    QCOMPARE(t->str(th->name), std::string_view("collector_harne")); // comm: 15 chars at most
}

void TestCollector::subscriberTaken() {
    const QString file = path("taken.strata");
    const Run r =
        runHarness("subscribe_taken", {"STRATA_OUTPUT=" + file, "NSYS_PROFILING_SESSION_ID=3"});
    QCOMPARE(r.status, 0); // the target runs on
    QCOMPARE(r.out.value("init_result"), QString("1"));
    QCOMPARE(r.out.value("state"), QString("2"));
    QCOMPARE(r.out.value("kernel_enabled"), QString("0")); // nothing enabled behind the other tool
    auto t = load(file);
    QVERIFY(t);
    const QString err = meta(*t, "cupti_error");
    QVERIFY2(err.contains("CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"), qPrintable(err));
    QVERIFY2(err.contains("Nsight Systems 2025.3"), qPrintable(err));
    QVERIFY2(err.contains("NSYS_* is set"), qPrintable(err));
    QCOMPARE(meta(*t, "cuda_initialized"), QString("1"));
    QVERIFY(hasWarning(*t, "collection disabled"));
    QCOMPARE(t->sliceCount(), size_t(0));
    QVERIFY(r.stderrText.contains("[strata] collection disabled"));
}

void TestCollector::nvtxOnlyProcess() {
    const QString file = path("nvtx_only.strata");
    const Run r = runHarness("nvtx_only", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("nvtx_result"), QString("1"));
    QCOMPARE(r.out.value("nvtx_forwarded"), QString("1")); // CUPTI's InitializeInjectionNvtx2 ran
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(meta(*t, "cuda_initialized"), QString("0")); // the launcher: "never initialized CUDA"
}

void TestCollector::schedule() {
    const QString file = path("schedule.strata");
    const Run r = runHarness("schedule", {"STRATA_OUTPUT=" + file, "STRATA_SCHEDULE_WAIT=1",
                                          "STRATA_SCHEDULE_ACTIVE=1", "STRATA_SCHEDULE_REPEAT=1",
                                          "STRATA_STEP_NAME=step"});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("nvtx_domain_enabled"), QString("1"));
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(slicesNamed(*t, "in_wait_step").empty());
    QCOMPARE(slicesNamed(*t, "in_active_step").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "after_schedule").empty());
    QCOMPARE(slicesNamed(*t, "cudaLaunchKernel").size(), size_t(1));
    // The active step's own range, stamped just before its window opened, is kept; the others
    // are not (2 kernels and 2 step ranges outside).
    QCOMPARE(slicesNamed(*t, "step").size(), size_t(1));
    QCOMPARE(meta(*t, "records_outside_capture"), QString("4"));
}

void TestCollector::captureRange() {
    const QString file = path("range.strata");
    const Run r =
        runHarness("capture_range", {"STRATA_OUTPUT=" + file, "STRATA_CAPTURE_RANGE=capture"});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(slicesNamed(*t, "before_range").empty());
    QCOMPARE(slicesNamed(*t, "inside_range").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "after_range").empty());
    QCOMPARE(meta(*t, "records_outside_capture"), QString("2"));
}

void TestCollector::profilerApiRange() {
    const QString file = path("profiler_api.strata");
    const Run r = runHarness("profiler_api",
                             {"STRATA_OUTPUT=" + file, "STRATA_CAPTURE_RANGE=cudaProfilerApi"});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("nvtx_domain_enabled"), QString("0")); // no NVTX range to watch
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(slicesNamed(*t, "before_start").empty());
    QCOMPARE(slicesNamed(*t, "inside_first").size(), size_t(1));
    QCOMPARE(slicesNamed(*t, "still_inside").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "between").empty());
    QCOMPARE(slicesNamed(*t, "inside_second").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "after_stop").empty());
    QCOMPARE(meta(*t, "records_outside_capture"), QString("3"));
}

void TestCollector::badOptionsAreWarnings() {
    const QString file = path("bad_options.strata");
    const Run r = runHarness("small", {"STRATA_OUTPUT=" + file, "STRATA_FLUSH_MS=abc",
                                       "STRATA_CAPTURE=kernels,bogus", "STRATA_DURATION_S=-1"});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(hasWarning(*t, "STRATA_FLUSH_MS=\"abc\" ignored"));
    QVERIFY(hasWarning(*t, "STRATA_CAPTURE: unknown group \"bogus\""));
    QVERIFY(hasWarning(*t, "STRATA_DURATION_S=\"-1\" ignored"));
    QCOMPARE(slicesNamed(*t, "small").size(), size_t(1));
    QCOMPARE(meta(*t, "cupti_activities"), QString("DEVICE,CONTEXT,OVERHEAD,CONCURRENT_KERNEL"));
}

void TestCollector::unwritableOutputKeepsTargetRunning() {
    const Run r = runHarness("small", {"STRATA_OUTPUT=/nonexistent-dir/x/{pid}.strata"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.stderrText.contains("[strata] cannot write the trace /nonexistent-dir/x/"),
             qPrintable(r.stderrText));
}

void TestCollector::launcherContract() {
    // strata-cli record passes its options as STRATA_* variables (contract/collector_env.h); the
    // harness (which calls InitializeInjection itself, as the driver would) runs the schedule
    // scenario under it, so the names and meanings on both sides must agree.
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    QTemporaryDir sub;
    QProcess p;
    p.start(STRATA_CLI, {"record", "-o", sub.filePath("rec-{pid}.strata"), "--collector",
                         STRATA_COLLECTOR_FAKE_SO, "--wait", "1", "--active", "1", "--repeat", "1",
                         "--step-name", "step", "--flush-ms", "50", "--", STRATA_COLLECTOR_HARNESS,
                         "schedule"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList files = QDir(sub.path()).entryList({"rec-*.strata"}, QDir::Files);
    QCOMPARE(files.size(), qsizetype(1));
    auto t = load(sub.filePath(files[0]));
    QVERIFY(t);
    QCOMPARE(slicesNamed(*t, "in_active_step").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "in_wait_step").empty());
    QVERIFY(slicesNamed(*t, "after_schedule").empty());
    // The collector wrote the run's id ($STRATA_RUN_ID, 32 hex digits), by which the launcher
    // found the file as its run's and appended the Run record (issue 34).
    QCOMPARE(t->metadata().at("run_id").size(), size_t(32));
    QVERIFY(t->run().has_value());
    QCOMPARE(t->run()->exitCode, std::optional<int>(0));
#endif
}

void TestCollector::teardownForcesFlush() {
    const QString file = path("teardown.strata");
    const Run r = runHarness("teardown", {"STRATA_OUTPUT=" + file, "STRATA_FLUSH_MS=100000"});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("forced_by_context_destroy"), QString("1"));
    QCOMPARE(r.out.value("forced_by_device_reset"), QString("1"));
    QCOMPARE(r.out.value("buffers_completed"), QString("1")); // the kernel's buffer, before exit
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(slicesNamed(*t, "before_teardown").size(), size_t(1));
}

void TestCollector::throughput() {
    // Not a benchmark gate: checks that 100 000 launches go through intact, and prints the cost
    // per record (fake CUPTI + parser + writer) for docs/gpu-validation.md.
    const QString file = path("throughput.strata");
    const Run r = runHarness("throughput", {"STRATA_OUTPUT=" + file, "HARNESS_N=100000"});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("records"), QString("200000"));
    qInfo("collector path (fake CUPTI + parser + writer): %s ns wall, %s ns CPU per record, %s "
          "CUPTI buffers",
          qPrintable(r.out.value("ns_per_record")), qPrintable(r.out.value("cpu_ns_per_record")),
          qPrintable(r.out.value("buffers_requested")));
    auto t = load(file);
    QVERIFY(t);
    const auto kernels = slicesNamed(*t, "empty()");
    QCOMPARE(kernels.size(), size_t(100000));
    QCOMPARE(slicesNamed(*t, "cudaLaunchKernel").size(), size_t(100000));
    for (size_t i = 0; i < kernels.size(); i += 9973) {
        const SliceRef launch = t->launchOf(kernels[i]);
        QVERIFY(launch.valid());
        QCOMPARE(t->start(kernels[i]) - t->start(launch), int64_t(3000));
    }
    QCOMPARE(meta(*t, "cupti_dropped_records"), QString("0"));
}

void TestCollector::graphLaunchOneToMany() {
    const QString file = path("graph.strata");
    const Run r = runHarness("graph", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    const SliceRef launch = only(*t, "cudaGraphLaunch");
    QVERIFY(launch.valid());
    const auto kernels = slicesNamed(*t, "node(int)");
    QCOMPARE(kernels.size(), size_t(3));
    QCOMPARE(t->gpuOpsOf(launch).size(), size_t(3));
    for (size_t i = 0; i < kernels.size(); ++i) {
        QCOMPARE(t->launchOf(kernels[i]), launch);
        QCOMPARE(t->gpu(kernels[i])->graphId, int64_t(5));
        QCOMPARE(t->gpu(kernels[i])->graphNodeId, int64_t(t->start(kernels[i]) / 10000));
    }
    const SliceRef sync = only(*t, "Context Sync");
    QVERIFY(sync.valid());
    QCOMPARE(t->track(sync.track).device, 2); // from the CONTEXT record
    QCOMPARE(t->gpu(sync)->stream, int64_t(-1));
}

void TestCollector::maximumDuration() {
    const QString file = path("duration.strata");
    const Run r = runHarness(
        "duration", {"STRATA_OUTPUT=" + file, "STRATA_DURATION_S=0.2", "STRATA_FLUSH_MS=10"});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("kernel_enabled"), QString("0")); // CUPTI turned off after 0.2 s
    QCOMPARE(r.out.value("runtime_enabled"), QString("0"));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(slicesNamed(*t, "early").size(), size_t(1));
    QVERIFY(slicesNamed(*t, "late").empty());
    QVERIFY(meta(*t, "capture_stopped").contains("STRATA_DURATION_S"));
    QCOMPARE(meta(*t, "records_outside_capture"), QString("1"));
}

void TestCollector::clockSkewCounted() {
    const QString file = path("skew.strata");
    const Run r = runHarness("skew", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(hasWarning(*t, "2 GPU operations started before the API call that launched them"));
    QCOMPARE(slicesNamed(*t, "skewed").size(), size_t(1)); // kept, flagged by the count
    QCOMPARE(slicesNamed(*t, "in_order").size(), size_t(1));
}

void TestCollector::sectionsHandOver() {
    // The host helper's hand-over (strata/sections_host.h, through dlsym) into the collector:
    // each launch's records attached to that launch by correlation id (the runtime call's, or a
    // driver-only launch's), names, clock rate and lost records kept.
    const QString file = path("sections.strata");
    const Run r = runHarness("sections", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("last_before_arm"), QString("-1")); // not armed: launches not noted
    QCOMPARE(r.out.value("arm"), QString("1"));
    QCOMPARE(r.out.value("last_runtime"), QString("5"));
    QCOMPARE(r.out.value("last_driver"), QString("8"));
    QCOMPARE(r.out.value("delivered_matmul"), QString("collector"));
    QCOMPARE(r.out.value("delivered_reduce"), QString("collector"));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(t->sections().size(), size_t(2));
    const SectionSet& mm = t->sections()[0];
    QCOMPARE(mm.correlation, int64_t(5));
    QCOMPARE(mm.kernel, std::string("matmul"));
    QCOMPARE(mm.names, (std::vector<std::string>{"load", "compute"}));
    QCOMPARE(mm.clockHz, 1e9);
    QCOMPARE(mm.lost, uint64_t(0));
    QCOMPARE(mm.samples.size(), size_t(8));
    // Ordered by (block, warp, section, start): block 1's compute lasts 100*2 + 10 cycles.
    QCOMPARE(mm.samples[3].block, 1u);
    QCOMPARE(mm.samples[3].section, uint16_t(1));
    QCOMPARE(mm.samples[3].cycles, int64_t(210));
    QCOMPARE(mm.samples[3].startNs, int64_t(5000 + 1000 + 500));
    QCOMPARE(mm.samples[3].sm, uint16_t(1));
    const SectionSet& red = t->sections()[1];
    QCOMPARE(red.correlation, int64_t(8));
    QCOMPARE(red.kernel, std::string("reduce"));
    QCOMPARE(red.samples.size(), size_t(6));
    QCOMPARE(red.lost, uint64_t(4));
    QVERIFY(hasWarning(*t, "sections of kernel reduce: 4 records lost"));
    // Each set finds its launch's kernel: by correlation id (the helper's "matmul" is CUPTI's
    // _Z6matmulv, shown demangled) and by name where they agree ("reduce").
    const SliceRef mmKernel = kernelOfSections(*t, mm), redKernel = kernelOfSections(*t, red);
    QVERIFY(mmKernel.valid() && redKernel.valid());
    QCOMPARE(t->kind(mmKernel), SliceKind::Kernel);
    QCOMPARE(t->start(mmKernel), TimeNs(5000));
    QCOMPARE(t->name(redKernel), std::string_view("reduce"));
    QCOMPARE(t->start(redKernel), TimeNs(10000));
    QCOMPARE(t->sectionsOf(5).size(), size_t(1));
    QCOMPARE(t->sectionsOf(8).size(), size_t(1));
    // Placed on the trace's clock at the kernel's start: device ns 5000 -> 5000.
    QCOMPARE(sectionTimeShift(*t, mm), TimeNs(0));
}

STRATA_TEST_GUILESS_MAIN(TestCollector)
#include "tst_collector.moc"
