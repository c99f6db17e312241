// Kernel and op statistics (core/analysis/op_stats), kernel categories, theoretical occupancy and
// the advisor's rules, on hand-made traces; every number worked out by hand beside its check.
#include "analysis/advice/advisor.h"
#include "analysis/ops/kernel_category.h"
#include "analysis/ops/op_stats.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

const KernelRow* kernelNamed(const OpStats& s, const std::string& n) {
    for (const KernelRow& k : s.kernels)
        if (k.name == n) return &k;
    return nullptr;
}

const Finding* findingOf(const Advice& a, const std::string& rule) {
    for (const Finding& f : a.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

} // namespace

class TestOpStats : public QObject {
    Q_OBJECT
private slots:
    void categories() {
        QCOMPARE(int(kernelCategory(SliceKind::Kernel, "volta_sgemm_128x64_nn")),
                 int(KernelCategory::Gemm));
        QCOMPARE(
            int(kernelCategory(SliceKind::Kernel, "void pytorch_flash::flash_fwd_kernel<...>")),
            int(KernelCategory::Attention));
        QCOMPARE(
            int(kernelCategory(SliceKind::Kernel, "at::native::vectorized_elementwise_kernel")),
            int(KernelCategory::Elementwise));
        QCOMPARE(int(kernelCategory(SliceKind::Kernel, "at::native::reduce_kernel<512>")),
                 int(KernelCategory::Reduction));
        QCOMPARE(int(kernelCategory(SliceKind::Kernel, "ncclKernel_AllReduce_RING_LL_Sum_float")),
                 int(KernelCategory::Communication));
        QCOMPARE(int(kernelCategory(SliceKind::Kernel, "convert_fp16_to_fp32")),
                 int(KernelCategory::Other));
        QCOMPARE(int(kernelCategory(SliceKind::Memcpy, "Memcpy HtoD")),
                 int(KernelCategory::Memcpy));
        QCOMPARE(int(kernelCategory(SliceKind::Memset, "Memset")), int(KernelCategory::Memset));
    }

    // The first pattern of the table found anywhere wins, whatever its place in the name and its
    // case (issue 42 made the search one pass over the name).
    void categoryByTableOrder_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("category");
        const int gemm = int(KernelCategory::Gemm), attention = int(KernelCategory::Attention);
        const int reduction = int(KernelCategory::Reduction);
        const int elementwise = int(KernelCategory::Elementwise);
        const int comm = int(KernelCategory::Communication), other = int(KernelCategory::Other);
        QTest::newRow("attention before gemm, later in the name") << "gemm_then_flash" << attention;
        QTest::newRow("nccl before gemm") << "xgemm_ncclx" << comm;
        QTest::newRow("upper case") << "FLASH_FWD" << attention;
        QTest::newRow("at the very end") << "kernel_gemm" << gemm;
        QTest::newRow("at the very start") << "relu_kernel" << elementwise;
        QTest::newRow("cut at the end") << "my_gem" << other;
        QTest::newRow("reduce before relu") << "relu_reduce" << reduction;
        QTest::newRow("reduce_scatter is communication")
            << "ReduceScatter_kernel" << comm; // "reducescatter" comes before "reduce"
        QTest::newRow("overlapping starts") << "ggemm" << gemm;
        QTest::newRow("pattern with underscores") << "cutlass_x" << gemm;
        QTest::newRow("_mm_ with its underscores") << "void_mm_kernel" << gemm;
        QTest::newRow("empty") << "" << other;
        QTest::newRow("non-ASCII bytes") << QString::fromUtf8("\u00e9l\u00e9ment") << other;
    }
    void categoryByTableOrder() {
        QFETCH(QString, name);
        QFETCH(int, category);
        QCOMPARE(int(kernelCategory(SliceKind::Kernel, name.toStdString())), category);
    }

    void tablesByHand() {
        // aten::mm [0,1000) holds two launches of "gemm_k": at 100 (10 ns) -> kernel [150,250),
        // at 400 (20 ns) -> kernel [470,770): durations 100 and 300, latencies 50 and 70, calls
        // 10 and 20. An "ew" kernel [800,850) launched at 760 outside any op. Two pageable HtoD
        // copies of 1000 bytes, 100 ns each: 2000 bytes in 200 ns = 10 GB/s.
        const auto t = strata::test::opStatsTrace();
        const OpStats s = computeOpStats(*t);
        QCOMPARE(s.kernelTime, TimeNs(450));
        const KernelRow* k = kernelNamed(s, "gemm_k");
        QVERIFY(k);
        QCOMPARE(int(k->category), int(KernelCategory::Gemm));
        QCOMPARE(k->time.count, uint64_t(2));
        QCOMPARE(k->time.total, TimeNs(400));
        QCOMPARE(k->share, 400.0 / 450.0);
        QCOMPARE(k->launched, uint64_t(2));
        QCOMPARE(k->launchLatencyMean, 60.0);
        QCOMPARE(k->launchCallMean, 15.0);
        QCOMPARE(k->configCount, 1u);                       // both grid [0,0,0] block [0,0,0]
        QCOMPARE(s.kernels[0].name, std::string("gemm_k")); // by total, descending
        // Categories over kernel, copy and set time (650): gemm 400, memcpy 200, elementwise 50.
        QCOMPARE(int(s.categories[0].category), int(KernelCategory::Gemm));
        QCOMPARE(s.categories[0].share, 400.0 / 650.0);
        QCOMPARE(int(s.categories[1].category), int(KernelCategory::Memcpy));
        QCOMPARE(s.categories[1].time, TimeNs(200));
        // CPU op aten::mm: total 1000, self 1000 - 30 (its two launch calls), GPU time 400.
        QCOMPARE(s.cpuOps.size(), size_t(1));
        QCOMPARE(s.cpuOps[0].name, std::string("aten::mm"));
        QCOMPARE(s.cpuOps[0].total, TimeNs(1000));
        QCOMPARE(s.cpuOps[0].self, TimeNs(970));
        QCOMPARE(s.cpuOps[0].gpuOps, uint64_t(2));
        QCOMPARE(s.cpuOps[0].gpuTime, TimeNs(400));
        // Copies: one row, pageable HtoD, 10 GB/s.
        QCOMPARE(s.copies.size(), size_t(1));
        QVERIFY(s.copies[0].pageable);
        QCOMPARE(s.copies[0].bytes, uint64_t(2000));
        QCOMPARE(s.copies[0].gbPerSecond, 10.0);
        // Grouped by the launching op: gemm_k under aten::mm, ew_elementwise under none.
        OpStatsOptions o;
        o.groupByLaunchingOp = true;
        const OpStats g = computeOpStats(*t, o);
        QCOMPARE(kernelNamed(g, "gemm_k")->launchedBy, std::string("aten::mm"));
        QCOMPARE(kernelNamed(g, "ew_elementwise")->launchedBy, std::string());
    }

    void occupancyByHand() {
        SmLimits h100;
        h100.known = true;
        h100.maxThreadsPerSm = 2048;
        h100.maxBlocksPerSm = 32;
        h100.regsPerSm = 65536;
        h100.sharedPerSm = 228 * 1024;
        h100.reservedSharedPerBlock = 1024;
        std::string why;
        // 256 threads = 8 warps; 64 registers: 2048 per warp -> 32 warps -> 4 blocks = 32 of 64.
        QCOMPARE(theoreticalOccupancy(h100, 256, 64, 0, &why), 0.5);
        QCOMPARE(why, std::string("registers"));
        // 32 registers: 64 warps by registers -> 8 blocks by warps = 64 of 64.
        QCOMPARE(theoreticalOccupancy(h100, 256, 32, 0, &why), 1.0);
        // 100 KiB of shared memory (+1 KiB reserved): 2 blocks of 8 warps = 16 of 64.
        QCOMPARE(theoreticalOccupancy(h100, 256, 32, 100 * 1024, &why), 0.25);
        QCOMPARE(why, std::string("shared memory"));
        // 32 threads (1 warp): at most 32 blocks = 32 warps of 64.
        QCOMPARE(theoreticalOccupancy(h100, 32, 16, 0, &why), 0.5);
        QCOMPARE(why, std::string("blocks per SM"));
    }

    void occupancySharedMemoryOfKnownParts() {
        // Kineto's "shared memory" is static and dynamic together; the dynamic part unknown
        // (-1) is no byte less (issue 44: 65535 for 65536). 128 threads (4 warps), 32
        // registers, 64 KiB (+1 KiB reserved) on an H100 (sm_90, 228 KiB per SM): 3 blocks,
        // 12 of 64 warps = 18.75 %, limited by shared memory.
        GpuTraceFixture f;
        DeviceInfo h100;
        h100.id = 0;
        h100.name = "H100";
        h100.computeMajor = 9;
        f.b.addDevice(h100);
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        g.block = {128, 1, 1};
        g.grid = {1, 1, 1};
        g.registersPerThread = 32;
        g.staticSharedBytes = 65536;
        g.dynamicSharedBytes = -1;
        SliceInput k;
        k.start = 0;
        k.dur = 10'000;
        k.name = f.b.intern("smem_kernel");
        k.category = f.b.intern("kernel");
        k.kind = SliceKind::Kernel;
        k.gpu = &g;
        f.b.addSlice(f.b.gpuStreamTrack(0, 7, 0, 7), k);
        const Advice a = adviseTrace(*f.build());
        const Finding* o = findingOf(a, "occupancy");
        QVERIFY(o);
        QVERIFY2(o->detail.find("128 threads per block, 32 registers per thread, 65536 bytes of "
                                "shared memory per block") == 0,
                 o->detail.c_str());
        QVERIFY2(o->detail.find("limited by shared memory") != std::string::npos,
                 o->detail.c_str());
        QCOMPARE(o->evidence[0].second, 0.1875);
        QCOMPARE(o->evidence[3].first, std::string("shared_bytes"));
        QCOMPARE(o->evidence[3].second, 65536.0);
    }

    void adviceByHand() {
        // 20 kernels of 5 µs, each launched 10 µs after the previous one ended: a run whose
        // launch-bound gaps total 19 x 10 µs = 190 µs. Two steps, each with a
        // cudaStreamSynchronize. No device properties: occupancy is said to be unknown.
        GpuTraceFixture f;
        f.cpuOp(0, 150'000, "ProfilerStep#1");
        f.cpuOp(150'000, 150'000, "ProfilerStep#2");
        TimeNs at = 1000;
        for (int i = 0; i < 20; ++i) {
            f.launch(at - (i == 0 ? 500 : 0), 100, 10 + i);
            f.kernel(0, 7, at + (i == 0 ? 0 : 0), 5'000, "tiny", 10 + i);
            at += 5'000 + 10'000; // next launch 10 µs after this kernel ends
        }
        f.launch(149'000, 500, -1, "cudaStreamSynchronize");
        f.launch(299'000, 500, -1, "cudaStreamSynchronize");
        const Advice a = adviseTrace(*f.build());
        const Finding* g = findingOf(a, "graphs");
        QVERIFY(g);
        QCOMPARE(g->evidence[1].first, std::string("estimated_saving_us"));
        QCOMPARE(g->evidence[1].second, 190.0);
        QCOMPARE(g->evidence[2].second, 20.0);
        const Finding* s = findingOf(a, "sync_in_loop");
        QVERIFY(s);
        QVERIFY2(s->title.find("cudaStreamSynchronize called 2 times (in every one of 2 steps)") ==
                     0,
                 s->title.c_str());
        const Finding* o = findingOf(a, "occupancy");
        QVERIFY(o);
        QCOMPARE(int(o->severity), int(FindingSeverity::NotApplicable));
        const Finding* idle = findingOf(a, "idle");
        QVERIFY(idle);
        // Device span [1000, 1000 + 19*15000 + 5000) = 290 µs; idle 19 x 10 µs = 190 µs.
        QCOMPARE(idle->evidence[0].second, 190.0 / 290.0);
        QCOMPARE(int(idle->severity), int(FindingSeverity::Warning));
    }
};

STRATA_TEST_GUILESS_MAIN(TestOpStats)
#include "tst_op_stats.moc"
