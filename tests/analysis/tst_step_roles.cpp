// Step time by role (issue 46, analysis/ops/step_roles.h) under the TensorBoard plugin's rule, on
// a hand-made trace; every figure worked out by hand in the comments.
//
// Thread (1, 1): ProfilerStep#1 [0, 1000), ProfilerStep#2 [1000, 2000) (user annotations);
// aten::mm [10, 300) and nccl:all_reduce [400, 500) (External id 77) CPU ops; a DataLoader span
// [1100, 1200); a Python frame [1000, 1990) (not a role under this rule); a driver call
// cuLaunchKernel [1700, 1800) (not one either). Runtime calls (cuda_runtime) with correlation:
//   1 [100, 150)  -> K1 kernel [200, 600)
//   2 [450, 460)  -> ncclKernel [700, 1300) (External id 77: communication)
//   3 [600, 610)  -> memcpy [650, 750)
//   4 [1300, 1350), 5 [1360, 1370), 6 [1380, 1390) -> K2 [1400, 2500), K3 [2500, 2600),
//                    K4 [2600, 2700)
// and a memset [1500, 1600) nothing launched.
// Steps stretched: step 1's runtime calls launched work until 1300 -> [0, 1300); step 2 starts at
// step 1's end and its work runs until 2700 -> [1300, 2700); it launched 3 ops, not under 80 % of
// step 1's 3, so it is kept.
// Step 1: kernel [200, 600) 400; memcpy [650, 750) 100; communication [750, 1300) 550 (its
// [400, 500) lies under K1); runtime [100, 150) + [600, 610) = 60; CPU op [10, 100) + [150, 200)
// = 140; other [0, 10) + [610, 650) = 50; overlap: computation 400, communication 100 + 600 =
// 700, both [400, 500) 100, other 1300 + 100 - 400 - 700 = 300.
// Step 2: kernel [1400, 2700) 1300; runtime 50 + 10 + 10 = 70; other 30; overlap: computation
// 1300, communication 0, both 0, other 100.
#include "analysis/ops/step_roles.h"
#include "model/build/trace_builder.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

namespace {

struct Builder {
    TraceBuilder b;
    TrackId cpu = b.threadTrack(1, 1);
    void slice(TrackId t, TimeNs start, TimeNs dur, const char* name, const char* category,
               SliceKind kind, int64_t correlation = -1, int64_t externalId = -1,
               const GpuActivity* gpu = nullptr) {
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.category = b.intern(category);
        s.kind = kind;
        s.correlation = correlation;
        s.externalId = externalId;
        s.gpu = gpu;
        b.addSlice(t, s);
    }
    void cpuSlice(TimeNs start, TimeNs dur, const char* name, const char* category, SliceKind kind,
                  int64_t correlation = -1, int64_t externalId = -1) {
        slice(cpu, start, dur, name, category, kind, correlation, externalId);
    }
    void gpuOp(TimeNs start, TimeNs dur, const char* name, SliceKind kind, int64_t correlation,
               int64_t externalId = -1) {
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        const char* category = kind == SliceKind::Kernel   ? "kernel"
                               : kind == SliceKind::Memcpy ? "gpu_memcpy"
                                                           : "gpu_memset";
        slice(b.gpuStreamTrack(0, 7, 0, 7), start, dur, name, category, kind, correlation,
              externalId, &g);
    }
};

std::shared_ptr<const Trace> handTrace() {
    Builder t;
    t.cpuSlice(0, 1000, "ProfilerStep#1", "user_annotation", SliceKind::UserAnnotation);
    t.cpuSlice(1000, 1000, "ProfilerStep#2", "user_annotation", SliceKind::UserAnnotation);
    t.cpuSlice(10, 290, "aten::mm", "cpu_op", SliceKind::CpuOp);
    t.cpuSlice(400, 100, "nccl:all_reduce", "cpu_op", SliceKind::CpuOp, -1, 77);
    t.cpuSlice(1100, 100, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
               "user_annotation", SliceKind::UserAnnotation);
    t.cpuSlice(1000, 990, "train.py(10): step", "python_function", SliceKind::PythonFunction);
    t.cpuSlice(1700, 100, "cuLaunchKernel", "cuda_driver", SliceKind::CudaDriver);
    const struct {
        TimeNs start, dur;
        int64_t corr;
    } launches[] = {{100, 50, 1},  {450, 10, 2},  {600, 10, 3},
                    {1300, 50, 4}, {1360, 10, 5}, {1380, 10, 6}};
    for (const auto& l : launches)
        t.cpuSlice(l.start, l.dur, "cudaLaunchKernel", "cuda_runtime", SliceKind::CudaRuntime,
                   l.corr);
    t.gpuOp(200, 400, "K1", SliceKind::Kernel, 1);
    t.gpuOp(700, 600, "ncclKernel_AllReduce", SliceKind::Kernel, 2, 77);
    t.gpuOp(650, 100, "Memcpy HtoD", SliceKind::Memcpy, 3);
    t.gpuOp(1400, 1100, "K2", SliceKind::Kernel, 4);
    t.gpuOp(2500, 100, "K3", SliceKind::Kernel, 5);
    t.gpuOp(2600, 100, "K4", SliceKind::Kernel, 6);
    t.gpuOp(1500, 100, "Memset", SliceKind::Memset, -1);
    return t.b.build();
}

TimeNs role(const StepRoleTimes& t, StepRole r) {
    return t.role[size_t(r)];
}

} // namespace

class TstStepRoles : public QObject {
    Q_OBJECT
private slots:
    void byHand() {
        const auto trace = handTrace();
        const StepRoles r = stepRoles(*trace);
        QCOMPARE(r.steps.size(), size_t(2));
        QCOMPARE(r.tailStepsLeftOut, size_t(0));
        const StepRoleTimes& s1 = r.steps[0];
        QCOMPARE(s1.name, std::string("ProfilerStep#1"));
        QCOMPARE(s1.start, TimeNs(0));
        QCOMPARE(s1.end, TimeNs(1300));
        QCOMPARE(role(s1, StepRole::Kernel), TimeNs(400));
        QCOMPARE(role(s1, StepRole::Memcpy), TimeNs(100));
        QCOMPARE(role(s1, StepRole::Memset), TimeNs(0));
        QCOMPARE(role(s1, StepRole::Communication), TimeNs(550));
        QCOMPARE(role(s1, StepRole::Runtime), TimeNs(60));
        QCOMPARE(role(s1, StepRole::DataLoading), TimeNs(0));
        QCOMPARE(role(s1, StepRole::CpuOp), TimeNs(140));
        QCOMPARE(role(s1, StepRole::Other), TimeNs(50));
        QCOMPARE(s1.computation, TimeNs(400));
        QCOMPARE(s1.communication, TimeNs(700));
        QCOMPARE(s1.overlap, TimeNs(100));
        QCOMPARE(s1.otherThanBoth, TimeNs(300));
        const StepRoleTimes& s2 = r.steps[1];
        QCOMPARE(s2.name, std::string("ProfilerStep#2"));
        QCOMPARE(s2.start, TimeNs(1300));
        QCOMPARE(s2.end, TimeNs(2700));
        QCOMPARE(role(s2, StepRole::Kernel), TimeNs(1300));
        QCOMPARE(role(s2, StepRole::Runtime), TimeNs(70));
        QCOMPARE(role(s2, StepRole::Memset), TimeNs(0));
        QCOMPARE(role(s2, StepRole::Other), TimeNs(30));
        QCOMPARE(s2.computation, TimeNs(1300));
        QCOMPARE(s2.communication, TimeNs(0));
        QCOMPARE(s2.otherThanBoth, TimeNs(100));
        for (const StepRoleTimes& s : r.steps) {
            TimeNs sum = 0;
            for (TimeNs t : s.role) sum += t;
            QCOMPARE(sum, s.duration());
        }
    }

    // No step: one step "0" over the CPU ops (aten::mm [10, 300) alone: CPU op 290).
    void noStepOneOverTheCpuOps() {
        Builder t;
        t.cpuSlice(10, 290, "aten::mm", "cpu_op", SliceKind::CpuOp);
        const StepRoles r = stepRoles(*t.b.build());
        QCOMPARE(r.steps.size(), size_t(1));
        QCOMPARE(r.steps[0].name, std::string("0"));
        QCOMPARE(r.steps[0].duration(), TimeNs(290));
        QCOMPARE(role(r.steps[0], StepRole::CpuOp), TimeNs(290));
    }

    // A trailing step that launched under 80 % of the ops of the one before is left out: step 2
    // launches 1 op against step 1's 2 (1 < 1.6).
    void thinTrailingStepLeftOut() {
        Builder t;
        t.cpuSlice(0, 1000, "ProfilerStep#1", "user_annotation", SliceKind::UserAnnotation);
        t.cpuSlice(1000, 1000, "ProfilerStep#2", "user_annotation", SliceKind::UserAnnotation);
        t.cpuSlice(100, 10, "cudaLaunchKernel", "cuda_runtime", SliceKind::CudaRuntime, 1);
        t.cpuSlice(200, 10, "cudaLaunchKernel", "cuda_runtime", SliceKind::CudaRuntime, 2);
        t.cpuSlice(1100, 10, "cudaLaunchKernel", "cuda_runtime", SliceKind::CudaRuntime, 3);
        t.gpuOp(300, 100, "K", SliceKind::Kernel, 1);
        t.gpuOp(400, 100, "K", SliceKind::Kernel, 2);
        t.gpuOp(1200, 100, "K", SliceKind::Kernel, 3);
        const StepRoles r = stepRoles(*t.b.build());
        QCOMPARE(r.steps.size(), size_t(1));
        QCOMPARE(r.tailStepsLeftOut, size_t(1));
    }
};

STRATA_TEST_GUILESS_MAIN(TstStepRoles)
#include "tst_step_roles.moc"
