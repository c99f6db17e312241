// collector_harness SCENARIO: plays the CUDA driver for the Strata collector built against the
// stand-in CUPTI (libfake_cupti.so), in its own process so exit, signal and fork paths are real.
// tst_collector sets STRATA_OUTPUT (and other STRATA_* options), runs a scenario, then reads the
// .strata file back. Observations are printed on stdout as key=value lines.
// The records' values are listed in tst_collector.cpp next to the expectations.
#include "collector_harness_feed.h"
#include "collector_harness_gpu_metrics.h"
#include "collector_harness_graph_driver.h"
#include "collector_harness_kernel_metrics.h"
#include "collector_harness_process.h"

namespace {

void basicRecords() {
    const uint32_t t = tid();
    device();
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 500, 600, 6); // noisy: filtered
    api(false, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 2000, 4000, 7); // nested in the runtime call
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 5000, 7);
    kernel("_Z6squarePfi", 10000, 25000, 7);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 30000, 31000, 8);
    memcpy6(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
            CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 1048576, 32000, 42000, 8);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, 40000, 41000, 9, 0);
    memcpy6(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
            CUPTI_ACTIVITY_MEMORY_KIND_PINNED, 4096, 43000, 44000, 9);
    // A peer copy from device 0 to device 1, run on device 0's stream 7.
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000, 51000, 51500, 14);
    auto pp = zeroed<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
    pp.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
    pp.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    pp.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    pp.bytes = 2097152;
    pp.start = 52000;
    pp.end = 53000;
    pp.deviceId = 0;
    pp.contextId = 1;
    pp.streamId = 7;
    pp.srcDeviceId = 0;
    pp.dstDeviceId = 1;
    pp.correlationId = 14;
    feed(pp);
    auto ms = zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
    ms.bytes = 256;
    ms.start = 45000;
    ms.end = 46000;
    ms.contextId = 1;
    ms.streamId = 7;
    ms.correlationId = 10;
    ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    feed(ms);
    memory(true, 1048576, 900);
    memory(true, 2097152, 950);
    memory(false, 1048576, 47000);
    auto sy = zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    sy.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    sy.start = 48000;
    sy.end = 49000;
    sy.contextId = 1;
    sy.streamId = 7;
    sy.correlationId = 11;
    sy.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    feed(sy);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, 47500, 49500, 11, 0);
    // NVTX: outer [100,900) contains inner [200,300) on this thread; a mark at 150; a
    // start/end range [400,800) ending on another thread (t + 1); a range whose end arrives in
    // an earlier buffer than its start. Colours (MARKER_DATA): outer's after its start, the
    // mark's right after it, none for inner, early end's before its start.
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, 100, "outer", t);
    markerData(1, 0xff76b900);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 0, 150, "tick", t);
    markerData(0, 0xffff0000);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 2, 200, "inner", t);
    markerData(2, 0);
    markerData(3, 0x000000ff); // alpha 0 as given: drawn opaque
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 2, 300, nullptr, t);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 4, 400, "async", t);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 4, 800, nullptr, t + 1);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, 900, nullptr, t);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 3, 700, nullptr, t);
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 5, 600, "never ended", t);
    fake_cupti_complete(); // next buffer
    marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 3, 650, "early end", t);
    kernel("_Z6squarePfi", 0, 0, 12);         // invalid timestamps (CUPTI out of device memory)
    kernel("_Z6squarePfi", 60000, 59000, 13); // end before start
    auto o = zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
    o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    o.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    o.objectId.pt.processId = uint32_t(getpid());
    o.objectId.pt.threadId = t;
    o.start = 50000;
    o.end = 50500;
    feed(o);
    fake_cupti_add_dropped(12);
}

int scheduleScenario() {
    // STRATA_SCHEDULE_WAIT=1 ACTIVE=1 REPEAT=1, STRATA_STEP_NAME=step (set by the test). Clock
    // readings are taken after each callback, so they fall inside the step they follow. The
    // steps' own MARKER records are timestamped before their callbacks, as CUPTI does (s*, e*).
    InitializeInjection();
    const uint64_t s0 = tick();
    push("step"); // step 0: wait
    const uint64_t a0 = tick();
    const uint64_t e0 = tick();
    pop();
    const uint64_t s1 = tick();
    push("step"); // step 1: active; the window opens after s1, before a1
    const uint64_t a1 = tick();
    const uint64_t b1 = tick();
    const uint64_t e1 = tick();
    pop(); // the window closes after e1
    const uint64_t s2 = tick();
    push("step"); // step 2: after the schedule
    const uint64_t a2 = tick();
    const uint64_t e2 = tick();
    pop();
    const uint32_t t = tid();
    const uint64_t marks[3][2] = {{s0, e0}, {s1, e1}, {s2, e2}};
    for (uint32_t i = 0; i < 3; ++i) {
        marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 10 + i, marks[i][0], "step", t);
        marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 10 + i, marks[i][1], nullptr, t);
    }
    kernel("in_wait_step", a0, a0 + 10, 1);
    kernel("in_active_step", a1, b1, 2);
    kernel("after_schedule", a2, a2 + 10, 3);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, a1 + 1, b1, 2);
    observations();
    return 0;
}

int captureRangeScenario() {
    // STRATA_CAPTURE_RANGE=capture: nvtxRangeStartA("capture") .. nvtxRangeEnd(id).
    InitializeInjection();
    const uint64_t before = tick();
    nvtxRangeStartA_params sp{"capture"};
    const nvtxRangeId_t id = 77;
    nvtxCallback(CUPTI_CBID_NVTX_nvtxRangeStartA, &sp, &id);
    const uint64_t inside = tick();
    nvtxRangeEnd_params ep{id};
    nvtxCallback(CUPTI_CBID_NVTX_nvtxRangeEnd, &ep);
    const uint64_t after = tick();
    kernel("before_range", before, before + 10, 1);
    kernel("inside_range", inside, inside + 10, 2);
    kernel("after_range", after, after + 10, 3);
    observations();
    return 0;
}

// cudaProfilerStart or cudaProfilerStop as libcudart makes it: the runtime call around the
// driver's (or, with runtime false, the driver's alone).
void profilerCall(bool start, bool runtime = true) {
    CUpti_CallbackData d;
    std::memset(&d, 0, sizeof d);
    const auto rt = start ? CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000
                          : CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000;
    const auto drv =
        start ? CUPTI_DRIVER_TRACE_CBID_cuProfilerStart : CUPTI_DRIVER_TRACE_CBID_cuProfilerStop;
    for (const CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
        d.callbackSite = site;
        if (runtime && site == CUPTI_API_ENTER)
            fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API, rt, &d);
        fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_DRIVER_API, drv, &d);
        if (runtime && site == CUPTI_API_EXIT)
            fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API, rt, &d);
    }
}

int profilerApiScenario() {
    // STRATA_CAPTURE_RANGE=cudaProfilerApi: start .. stop, a second start while started (no-op),
    // then start .. stop through the driver API alone.
    InitializeInjection();
    const uint64_t before = tick();
    profilerCall(true);
    const uint64_t inside = tick();
    profilerCall(true);
    const uint64_t stillInside = tick();
    profilerCall(false);
    const uint64_t between = tick();
    profilerCall(true, false);
    const uint64_t inside2 = tick();
    profilerCall(false, false);
    const uint64_t after = tick();
    kernel("before_start", before, before + 10, 1);
    kernel("inside_first", inside, inside + 10, 2);
    kernel("still_inside", stillInside, stillInside + 10, 3);
    kernel("between", between, between + 10, 4);
    kernel("inside_second", inside2, inside2 + 10, 5);
    kernel("after_stop", after, after + 10, 6);
    observations();
    return 0;
}

// A kernel launch as the CUDA runtime makes it (the runtime call around the driver's, each with
// its own correlation id), or as CuPy/Numba make it (the driver's alone, runtimeCorr 0).
void launchCall(uint32_t runtimeCorr, uint32_t driverCorr) {
    CUpti_CallbackData d;
    std::memset(&d, 0, sizeof d);
    for (const CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
        d.callbackSite = site;
        d.correlationId = runtimeCorr;
        if (runtimeCorr && site == CUPTI_API_ENTER)
            fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                       CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &d);
        d.correlationId = driverCorr;
        fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_DRIVER_API,
                                   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
        d.correlationId = runtimeCorr;
        if (runtimeCorr && site == CUPTI_API_EXIT)
            fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                       CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &d);
    }
}

// `blocks` blocks x 2 sections ("load", "compute"); block b's section s lasts 100 * (b + 1) +
// 10 * s cycles, at 1 GHz; the device tried to write `attempted` records.
void submitSections(const char* kernelName, uint32_t blocks, uint64_t attempted) {
    std::vector<strata::SectionRecord> records;
    for (uint32_t b = 0; b < blocks; ++b)
        for (uint16_t s = 0; s < 2; ++s) {
            strata::SectionRecord r{};
            r.start_clock = 1000 * b + 500 * s;
            r.end_clock = r.start_clock + 100 * (b + 1) + 10 * s;
            r.start_ns = 5000 + r.start_clock;
            r.end_ns = 5000 + r.end_clock;
            r.block = b;
            r.section = s;
            r.sm = uint16_t(b % 3);
            records.push_back(r);
        }
    const char* names[] = {"load", "compute"};
    StrataSectionsSubmission s{};
    s.version = STRATA_SECTIONS_ABI_VERSION;
    s.device = 0;
    s.name_count = 2;
    s.names = names;
    s.kernel = kernelName;
    s.clock_hz = 1e9;
    s.records = records.data();
    s.record_count = records.size();
    s.attempted = attempted;
    s.correlation = strata::sections_detail::collectorLastLaunch(); // as the helper does
    std::string file, error;
    const auto d = strata::sections_detail::deliver(s, &file, &error);
    std::printf("delivered_%s=%s\n", kernelName,
                d == strata::SectionsDelivery::Collector ? "collector" : "file");
}

int sectionsScenario() {
    // Launches before arming are not noted; after it, the runtime call's correlation id (not the
    // driver call inside it) and, for a driver-only launch, the driver call's.
    InitializeInjection();
    launchCall(3, 4);
    std::printf("last_before_arm=%lld\n",
                (long long)strata::sections_detail::collectorLastLaunch());
    std::printf("arm=%d\n", strata::sections_detail::collectorArm());
    launchCall(5, 6);
    std::printf("last_runtime=%lld\n", (long long)strata::sections_detail::collectorLastLaunch());
    submitSections("matmul", 4, 8); // the helper's name; CUPTI's is the mangled one
    launchCall(0, 8);
    std::printf("last_driver=%lld\n", (long long)strata::sections_detail::collectorLastLaunch());
    submitSections("reduce", 3, 10); // 4 records lost
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1000, 2000, 5);
    api(false, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 3000, 4000, 8);
    kernel("_Z6matmulv", 5000, 9000, 5);
    kernel("reduce", 10000, 12000, 8);
    return 0;
}

int graphReplaysScenario() {
    // Graph 7, instantiated first (collector_harness_graph_driver.h: its topology, a diamond of
    // three kernels and a host node), replayed 100 times: replay r's cudaGraphLaunch [100 us +
    // 50 us * r, + 2 us], correlation 1000 + r; its kernel node k (clone ids 11, 12, 13) runs
    // [launch + 5 us + 10 us * k, + 8 us] on stream 9 (the host node leaves no record); the
    // kernels reach CUPTI's buffer before their launch call does.
    InitializeInjection();
    instantiateFakeGraph();
    const char* const names[3] = {"_Z5scalePf", "_Z4biasPf", "_Z4reluPf"};
    for (uint32_t r = 0; r < 100; ++r) {
        const uint64_t launch = 100000 + 50000 * uint64_t(r);
        for (uint32_t k = 0; k < 3; ++k) {
            auto n = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
            n.name = names[k];
            n.start = launch + 5000 + 10000 * k;
            n.end = n.start + 8000;
            n.contextId = 1;
            n.streamId = 9;
            n.correlationId = 1000 + r;
            n.graphId = 7;
            n.graphNodeId = 11 + k;
            feed(n);
        }
        api(true, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, launch, launch + 2000, 1000 + r);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: collector_harness SCENARIO\n");
        return 2;
    }
    const std::string s = argv[1];
    if (s == "basic") {
        InitializeInjection();
        InitializeInjection(); // idempotent
        basicRecords();
        observations();
        return 0; // exit: atexit -> forced flush -> close
    }
    if (s == "graph") {
        // One cudaGraphLaunch, three kernels sharing its correlation id (graph 5, nodes 1..3),
        // delivered in a buffer before the API record's buffer (CUPTI gives no order guarantee).
        InitializeInjection();
        for (uint64_t node = 1; node <= 3; ++node) {
            auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
            k.name = "_Z4nodei";
            k.start = 10000 * node;
            k.end = 10000 * node + 5000;
            k.contextId = 1;
            k.streamId = 9;
            k.correlationId = 20;
            k.graphId = 5;
            k.graphNodeId = node;
            feed(k);
        }
        fake_cupti_complete();
        api(true, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 1000, 3000, 20);
        // A context with no kernels, on device 2: its context sync lands on device 2.
        auto ctx = zeroed<CUpti_ActivityContext3>(CUPTI_ACTIVITY_KIND_CONTEXT);
        ctx.contextId = 4;
        ctx.deviceId = 2;
        feed(ctx);
        auto sy = zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
        sy.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
        sy.start = 50000;
        sy.end = 51000;
        sy.contextId = 4;
        sy.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
        sy.correlationId = 21;
        feed(sy);
        return 0;
    }
    if (s == "graph_replays") return graphReplaysScenario();
    if (s == "duration") {
        // STRATA_DURATION_S=0.2 (set by the test): a kernel at the start is kept; after the limit
        // the flush thread turns CUPTI's activities off and later records are left out.
        InitializeInjection();
        const uint64_t early = fake_cupti_now();
        kernel("early", early, early + 10, 1);
        usleep(600 * 1000);
        const uint64_t late = fake_cupti_now();
        kernel("late", late, late + 10, 2);
        observations();
        return 0;
    }
    if (s == "skew") {
        // Kernel 30 starts before its launch call; kernel 31 too, but arrives a buffer before the
        // call; kernel 32 is in order. Two are clock skew.
        InitializeInjection();
        api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 5000, 6000, 30);
        kernel("skewed", 4000, 4500, 30);
        kernel("skewed_early", 100, 150, 31);
        fake_cupti_complete();
        api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 200, 300, 31);
        api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 7000, 7500, 32);
        kernel("in_order", 8000, 8500, 32);
        return 0;
    }
    if (s == "teardown") {
        // The runtime destroys its context (cudart's own atexit may run before ours) and resets
        // the device: both must force CUPTI's buffers out first.
        InitializeInjection();
        kernel("before_teardown", 1000, 2000, 1);
        const int forced0 = fake_cupti_flush_calls(1);
        CUpti_ResourceData rd{};
        fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RESOURCE,
                                   CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &rd);
        const int forced1 = fake_cupti_flush_calls(1);
        CUpti_CallbackData cd{};
        cd.callbackSite = CUPTI_API_ENTER;
        fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                   CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, &cd);
        const int forced2 = fake_cupti_flush_calls(1);
        std::printf(
            "forced_by_context_destroy=%d\nforced_by_device_reset=%d\nbuffers_completed=%d\n",
            forced1 - forced0, forced2 - forced1, fake_cupti_buffers_completed());
        observations();
        return 0;
    }
    if (s == "throughput") {
        // N launches = N runtime records + N kernel records through the parser and the writer.
        const char* count = std::getenv("HARNESS_N");
        const long n = count ? std::atol(count) : 200000;
        InitializeInjection();
        timespec c0{}, c1{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        const uint64_t t0 = fake_cupti_now();
        auto a = zeroed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
        a.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
        a.processId = uint32_t(getpid());
        a.threadId = tid();
        auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        k.name = "_Z5emptyv";
        k.contextId = 1;
        k.streamId = 7;
        k.gridX = k.gridY = k.gridZ = k.blockX = k.blockY = k.blockZ = 1;
        for (long i = 0; i < n; ++i) {
            const uint64_t t = 1000000 + uint64_t(i) * 4000;
            a.start = t;
            a.end = t + 2500;
            a.correlationId = k.correlationId = uint32_t(i + 1);
            k.start = t + 3000;
            k.end = t + 3500;
            feed(a);
            feed(k);
        }
        fake_cupti_complete();
        strata_collector_flush();
        const uint64_t t1 = fake_cupti_now();
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        const double cpuNs = double(c1.tv_sec - c0.tv_sec) * 1e9 + double(c1.tv_nsec - c0.tv_nsec);
        std::printf("cpu_ns_per_record=%.1f\n", cpuNs / double(2 * n));
        std::printf("records=%ld\nns_per_record=%.1f\n", 2 * n, double(t1 - t0) / double(2 * n));
        std::printf("buffers_requested=%d\n", fake_cupti_buffers_requested());
        return 0;
    }
    if (s == "small") {
        InitializeInjection();
        kernel("small", 1000, 2000, 1);
        return 0;
    }
    if (s == "subscribe_taken") {
        fake_cupti_fail_subscribe(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
                                  "Nsight Systems 2025.3");
        const int r = InitializeInjection();
        std::printf("init_result=%d\n", r);
        kernel("not recorded", 1000, 2000, 1);
        observations();
        return 0;
    }
    if (s == "nvtx_only") {
        std::printf("nvtx_result=%d\n", InitializeInjectionNvtx2(nullptr));
        std::printf("nvtx_forwarded=%d\n", fake_cupti_nvtx_initializations());
        observations();
        return 0;
    }
    if (s == "paced") return pacedScenario();
    if (s == "schedule") return scheduleScenario();
    if (s == "sections") return sectionsScenario();
    if (s == "capture_range") return captureRangeScenario();
    if (s == "profiler_api") return profilerApiScenario();
    if (s == "fork") return forkScenario();
    if (s == "exec_child") {
        InitializeInjection();
        kernel("parent", 1000, 2000, 1);
        const pid_t child = fork();
        if (child == 0) {
            execl(argv[0], argv[0], "small", static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        waitpid(child, &status, 0);
        std::printf("child_pid=%d\nchild_exit=%d\n", int(child),
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        observations();
        return 0;
    }
    if (s == "sigterm") return signalScenario(SIGTERM, false);
    if (s == "sigterm_in_cupti") return signalInCuptiScenario();
    if (s == "sigterm_handler") return signalScenario(SIGTERM, true);
    if (s == "abort") return signalScenario(SIGABRT, false);
    if (s == "wait_for_launcher") return launcherScenario();
    if (s == "attach") return attachScenario();
    if (s == "gpu_metrics") return gpuMetricsScenario();
    if (s == "gpu_metrics_refused") return gpuMetricsRefusedScenario();
    if (s == "gpu_metrics_lost") return gpuMetricsLostScenario();
    if (s == "kernel_metrics") return kernelMetricsScenario();
    std::fprintf(stderr, "unknown scenario %s\n", s.c_str());
    return 2;
}
