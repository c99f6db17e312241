// The advisor ranked by what each finding would save (core/analysis/advisor, issue 27), on a
// hand-made two-step trace shaped like the image-model trace of the issue: the GPU waits 500 µs a
// step on the input pipeline, a cudaStreamSynchronize returns 5 µs into that wait, two pageable
// copies take 2 µs each, a GEMM and an elementwise kernel have low theoretical occupancy. The
// input pipeline must come first, as a warning; the sync, the copies and the occupancies are
// information. Times in ns, every figure worked out by hand below.
#include "analysis/advice/advisor.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// A kernel with a launch configuration: `threads` per block, `regs` per thread.
void kernel(GpuTraceFixture& f, TimeNs start, TimeNs dur, const std::string& name, int64_t corr,
            int threads, int regs) {
    GpuActivity a;
    a.device = 0;
    a.stream = 7;
    a.block = {threads, 1, 1};
    a.grid = {132, 1, 1};
    a.registersPerThread = regs;
    a.staticSharedBytes = 0;
    a.dynamicSharedBytes = 0;
    SliceInput s;
    s.start = start;
    s.dur = dur;
    s.name = f.b.intern(name);
    s.category = f.b.intern("kernel");
    s.kind = SliceKind::Kernel;
    s.correlation = corr;
    s.gpu = &a;
    f.b.addSlice(f.b.gpuStreamTrack(0, 7, 0, 7), s);
}

const char* const kGemm = "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x256x64";
const char* const kSlow = "vectorized_elementwise_kernel";
const char* const kSpan = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

// ProfilerStep#1 [0, 700'000), #2 [700'000, 1'400'000); in step s (S = 700'000 s):
//   GPU   gemm [S, S+100'000) (384 threads, 168 registers: 1 block of 12 warps, 18.75 %),
//         slow [S+100'000, S+160'000) (256 threads, 255 registers: 8 warps, 12.5 %),
//         gap [S+160'000, S+660'000), a pageable copy [S+660'000, S+662'000),
//         tail [S+662'000, S+700'000) (256 threads, 32 registers: full occupancy)
//   CPU   cudaStreamSynchronize [S+50'000, S+165'000): 5'000 into the gap;
//         the DataLoader span [S+170'000, S+650'000): the gap is blocked 5'000, untraced
//         5'000 + 480'000 (under the span) + 5'000, the copy's call 1'000, queued 4'000 ->
//         CPU-bound, input pipeline (480'000 of 500'000 under the span);
//         the launches of the copy, tail and the next step's gemm and slow.
std::shared_ptr<const Trace> imageModelTrace() {
    GpuTraceFixture f;
    DeviceInfo h100;
    h100.id = 0;
    h100.name = "NVIDIA H100 80GB HBM3";
    h100.computeMajor = 9;
    h100.computeMinor = 0;
    f.b.addDevice(h100);
    f.launch(-20'000, 1'000, 300);
    f.launch(-18'000, 1'000, 400);
    for (int s = 0; s < 2; ++s) {
        const TimeNs S = 700'000 * TimeNs(s);
        f.cpuOp(S, 700'000, "ProfilerStep#" + std::to_string(s + 1));
        kernel(f, S, 100'000, kGemm, 300 + s, 384, 168);
        kernel(f, S + 100'000, 60'000, kSlow, 400 + s, 256, 255);
        f.launch(S + 50'000, 115'000, -1, "cudaStreamSynchronize");
        f.annotation(S + 170'000, 480'000, kSpan);
        f.launch(S + 655'000, 1'000, 100 + s, "cudaMemcpyAsync");
        f.pageableCopy(S + 660'000, 2'000, 4096, 100 + s);
        f.launch(S + 656'500, 500, 200 + s);
        kernel(f, S + 662'000, 38'000, "tail_kernel", 200 + s, 256, 32);
        if (s == 0) {
            f.launch(S + 663'000, 1'000, 301);
            f.launch(S + 664'000, 1'000, 401);
        }
    }
    return f.build();
}

const Finding* findingOf(const Advice& a, const std::string& rule, const std::string& title = {}) {
    for (const Finding& f : a.findings)
        if (f.rule == rule && f.title.find(title) != std::string::npos) return &f;
    return nullptr;
}

} // namespace

class TestAdvisor : public QObject {
    Q_OBJECT
private slots:
    void rankedBySaving() {
        const auto t = imageModelTrace();
        const Advice a = adviseTrace(*t);
        QVERIFY(a.basisIsSteps);
        QCOMPARE(a.basis, TimeNs(1'400'000)); // two steps of 700 µs, one device
        // First: the input pipeline, the two 500 µs gaps.
        const Finding& top = a.findings.front();
        QCOMPARE(top.rule, std::string("input_pipeline"));
        QCOMPARE(int(top.severity), int(FindingSeverity::Warning));
        QCOMPARE(top.saving, TimeNs(1'000'000));
        QCOMPARE(top.savingShare, 1'000'000.0 / 1'400'000.0);
        QVERIFY2(top.detail.find(std::string("untraced, under ") + kSpan + " 960") !=
                     std::string::npos,
                 top.detail.c_str());
        // The sync blocked 5'000 of each gap: 10'000, 0.7 % of the steps: information.
        const Finding* sync = findingOf(a, "sync_in_loop");
        QVERIFY(sync);
        QCOMPARE(sync->saving, TimeNs(10'000));
        QCOMPARE(int(sync->severity), int(FindingSeverity::Info));
        // Two pageable copies of 2'000: at most 4'000, information.
        const Finding* copies = findingOf(a, "pageable");
        QVERIFY(copies);
        QCOMPARE(copies->saving, TimeNs(4'000));
        QCOMPARE(int(copies->severity), int(FindingSeverity::Info));
        // The GEMM's low occupancy is by design: no saving, information.
        const Finding* gemm = findingOf(a, "occupancy", kGemm);
        QVERIFY(gemm);
        QCOMPARE(gemm->evidence.front().second, 0.1875);
        QCOMPARE(gemm->saving, TimeNs(0));
        QCOMPARE(int(gemm->severity), int(FindingSeverity::Info));
        // The elementwise kernel's 12.5 %: at most 120'000 x (1 - 12.5 / 25) = 60'000, 4.3 %.
        const Finding* slow = findingOf(a, "occupancy", kSlow);
        QVERIFY(slow);
        QCOMPARE(slow->evidence.front().second, 0.125);
        QCOMPARE(slow->saving, TimeNs(60'000));
        QCOMPARE(int(slow->severity), int(FindingSeverity::Info));
        // No other warning; the findings by saving, largest first.
        for (size_t i = 1; i < a.findings.size(); ++i) {
            QVERIFY(a.findings[i].severity != FindingSeverity::Warning);
            QVERIFY(a.findings[i - 1].saving >= a.findings[i].saving ||
                    a.findings[i].severity == FindingSeverity::NotApplicable);
        }
        QCOMPARE(a.findings[1].rule, std::string("occupancy")); // 60'000
        QCOMPARE(a.findings[2].rule, std::string("sync_in_loop"));
        QCOMPARE(a.findings[3].rule, std::string("pageable"));
    }

    void onlyGapsInsideStepsSave() {
        // ProfilerStep#1 [100'000, 200'000); kernels A [0, 10'000), B [100'000, 110'000),
        // C [150'000, 160'000), launched at -5'000, 99'000 and 149'000 (500 each). Both gaps are
        // CPU-bound (untraced, then the launch 500 and queued 500); [10'000, 100'000) starts
        // before the step and saves nothing of it: the finding saves [110'000, 150'000) only,
        // 40'000 of the step's 100'000.
        GpuTraceFixture f;
        f.cpuOp(100'000, 100'000, "ProfilerStep#1");
        f.launch(-5'000, 500, 1);
        f.kernel(0, 7, 0, 10'000, "A", 1);
        f.launch(99'000, 500, 2);
        f.kernel(0, 7, 100'000, 10'000, "B", 2);
        f.launch(149'000, 500, 3);
        f.kernel(0, 7, 150'000, 10'000, "C", 3);
        const auto t = f.build();
        const Advice a = adviseTrace(*t);
        QCOMPARE(a.basis, TimeNs(100'000));
        const Finding* cpu = findingOf(a, "cpu_bound");
        QVERIFY(cpu);
        QCOMPARE(cpu->saving, TimeNs(40'000));
        QCOMPARE(cpu->savingShare, 0.4);
        QVERIFY2(cpu->title.find("(1 gap CPU-bound)") != std::string::npos, cpu->title.c_str());
        QCOMPARE(a.findings.front().rule, std::string("cpu_bound"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestAdvisor)
#include "tst_advisor.moc"
