// GPU time by GPU-side user annotation (issue 46, analysis/ops/gpu_annotations.h), on a hand-made
// trace; every figure worked out by hand here.
//
// Device 0, stream 7: annotations "outer" [0, 1000), "inner" [100, 400) and "inner" [600, 700);
//   k1 [50, 90)       under outer only                          -> outer
//   z  [100, 100)     0 ns at inner's start: not in it (start < anno end and anno start < end:
//                     100 < 100 fails), in outer                 -> outer
//   k2 [150, 250)     in outer and inner: the shorter            -> inner
//   k3 [350, 450)     crosses inner's end: wholly inner's        -> inner (100 ns, not 50)
//   m1 [450, 500)     a copy, in outer                           -> outer
//   k4 [650, 680)     in the second inner                        -> inner
//   k6 [990, 1010)    crosses outer's end                        -> outer
//   k5 [1000, 1100)   starts at outer's end                      -> none
// Device 0, stream 8: k7 [150, 250) under stream 7's annotations in time, none of its own -> none.
// Device 1, stream 7: "inner" [0, 100) holds a kernel [20, 60) and a set [60, 80) -> inner;
//   "tieA" [200, 300) and "tieB" [250, 350), 100 ns each: a kernel [260, 280) in both goes to
//   the later (tieB); a kernel [210, 220) in tieA only -> tieA.
// Per name: inner: ops k2, k3, k4 + 2 on device 1 = 5 (4 kernels); GPU time device 0 100 + 100 +
//   30 = 230, device 1 [20, 80) 60: 290; annotations 3, annotated 300 + 100 + 100 = 500.
//   outer: k1, z, m1, k6 = 4 (3 kernels); 40 + 0 + 50 + 20 = 110; 1 annotation, 1000.
//   tieB: 1, 20, 1, 100. tieA: 1, 10, 1, 100.
// Busy: device 0 [50, 90) 40 + [150, 250) 100 + [350, 500) 150 + [650, 680) 30 + [990, 1100) 110 =
//   430; device 1 60 + 10 + 20 = 90; 520. Ops 13, 11 attributed.
#include "analysis/json/gpu_annotations_json.h"
#include "analysis/ops/gpu_annotations.h"
#include "analysis/ops/gpu_ops.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

void gpuAnnotation(GpuTraceFixture& f, int32_t device, int64_t stream, TimeNs start, TimeNs dur,
                   const char* name) {
    SliceInput s;
    s.start = start;
    s.dur = dur;
    s.name = f.b.intern(name);
    s.category = f.b.intern("gpu_user_annotation");
    s.kind = SliceKind::GpuUserAnnotation;
    f.b.addSlice(f.b.gpuStreamTrack(device, stream, device, stream), s);
}

std::shared_ptr<const Trace> annotatedTrace() {
    GpuTraceFixture f;
    gpuAnnotation(f, 0, 7, 0, 1000, "outer");
    gpuAnnotation(f, 0, 7, 100, 300, "inner");
    gpuAnnotation(f, 0, 7, 600, 100, "inner");
    f.kernel(0, 7, 50, 40, "k1");
    f.kernel(0, 7, 100, 0, "z");
    f.kernel(0, 7, 150, 100, "k2");
    f.kernel(0, 7, 350, 100, "k3");
    f.memcpy(0, 7, 450, 50);
    f.kernel(0, 7, 650, 30, "k4");
    f.kernel(0, 7, 990, 20, "k6");
    f.kernel(0, 7, 1000, 100, "k5");
    f.kernel(0, 8, 150, 100, "k7");
    gpuAnnotation(f, 1, 7, 0, 100, "inner");
    f.kernel(1, 7, 20, 40, "k8");
    f.memset(1, 7, 60, 20);
    gpuAnnotation(f, 1, 7, 200, 100, "tieA");
    gpuAnnotation(f, 1, 7, 250, 100, "tieB");
    f.kernel(1, 7, 260, 20, "k9");
    f.kernel(1, 7, 210, 10, "k10");
    return f.build();
}

} // namespace

class TstGpuAnnotations : public QObject {
    Q_OBJECT
private slots:
    void byHand();
    void rangeCountsWhatStartsInIt();
    void noAnnotation();
    void json();
};

void TstGpuAnnotations::byHand() {
    const auto t = annotatedTrace();
    const GpuAnnotations a = attributeGpuAnnotations(*t, collectGpuOps(*t));
    QCOMPARE(a.ops, uint64_t(13));
    QCOMPARE(a.attributedOps, uint64_t(11));
    QCOMPARE(a.annotations, uint64_t(6));
    QCOMPARE(a.busyTime, TimeNs(520));
    QCOMPARE(a.rows.size(), size_t(4));
    struct Want {
        const char* name;
        uint64_t ops, kernels;
        TimeNs gpu;
        uint64_t annotations;
        TimeNs annotated;
    };
    const Want want[] = {{"inner", 5, 4, 290, 3, 500},
                         {"outer", 4, 3, 110, 1, 1000},
                         {"tieB", 1, 1, 20, 1, 100},
                         {"tieA", 1, 1, 10, 1, 100}};
    for (size_t i = 0; i < 4; ++i) {
        const GpuAnnotationRow& r = a.rows[i];
        QCOMPARE(r.name, std::string(want[i].name));
        QCOMPARE(r.ops, want[i].ops);
        QCOMPARE(r.kernels, want[i].kernels);
        QCOMPARE(r.gpuTime, want[i].gpu);
        QCOMPARE(r.share, double(want[i].gpu) / 520.0);
        QCOMPARE(r.annotations, want[i].annotations);
        QCOMPARE(r.annotatedTime, want[i].annotated);
    }
}

// Ops [150, 700): k2, k3, m1, k4 on device 0 and k9 [260, 280), k10 [210, 220) on device 1; the
// annotations that start in it: "inner" [600, 700) on device 0, tieA and tieB on device 1. Ops
// are still attributed to annotations that start before the range (outer, the first inner).
// inner: k2, k3, k4 = 3 ops, 230 ns, 1 annotation of 100 ns; outer: m1, 1 op, 50 ns, no
// annotation starting in the range; tieB 20, tieA 10. Busy: device 0 [150, 250) 100 + [350, 500)
// 150 + [650, 680) 30 + k7 [150, 250) (already in) = 280; device 1 30: 310.
void TstGpuAnnotations::rangeCountsWhatStartsInIt() {
    const auto t = annotatedTrace();
    const GpuAnnotations a = attributeGpuAnnotations(*t, collectGpuOps(*t, TimeRange{150, 700}));
    QCOMPARE(a.ops, uint64_t(7));
    QCOMPARE(a.attributedOps, uint64_t(6));
    QCOMPARE(a.annotations, uint64_t(3));
    QCOMPARE(a.busyTime, TimeNs(310));
    QCOMPARE(a.rows.size(), size_t(4));
    QCOMPARE(a.rows[0].name, std::string("inner"));
    QCOMPARE(a.rows[0].ops, uint64_t(3));
    QCOMPARE(a.rows[0].gpuTime, TimeNs(230));
    QCOMPARE(a.rows[0].annotations, uint64_t(1));
    QCOMPARE(a.rows[0].annotatedTime, TimeNs(100));
    QCOMPARE(a.rows[1].name, std::string("outer"));
    QCOMPARE(a.rows[1].ops, uint64_t(1));
    QCOMPARE(a.rows[1].gpuTime, TimeNs(50));
    QCOMPARE(a.rows[1].annotations, uint64_t(0));
    QCOMPARE(a.rows[2].name, std::string("tieB"));
    QCOMPARE(a.rows[3].name, std::string("tieA"));
}

void TstGpuAnnotations::noAnnotation() {
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100);
    const auto t = f.build();
    const GpuAnnotations a = attributeGpuAnnotations(*t, collectGpuOps(*t));
    QCOMPARE(a.ops, uint64_t(1));
    QCOMPARE(a.attributedOps, uint64_t(0));
    QCOMPARE(a.busyTime, TimeNs(100));
    QVERIFY(a.rows.empty());
    QCOMPARE(gpuAnnotationsToJson(a).dump(), std::string("[]"));
}

void TstGpuAnnotations::json() {
    const auto t = annotatedTrace();
    const nlohmann::json j = gpuAnnotationsToJson(attributeGpuAnnotations(*t, collectGpuOps(*t)));
    QCOMPARE(j.size(), size_t(4));
    const nlohmann::json& r = j[1];
    QCOMPARE(r.at("name").get<std::string>(), std::string("outer"));
    QCOMPARE(r.at("ops").get<int>(), 4);
    QCOMPARE(r.at("kernels").get<int>(), 3);
    QCOMPARE(r.at("gpu_us").get<double>(), 0.110);
    QCOMPARE(r.at("share").get<double>(), 110.0 / 520.0);
    QCOMPARE(r.at("annotations").get<int>(), 1);
    QCOMPARE(r.at("annotated_us").get<double>(), 1.0);
}

STRATA_TEST_GUILESS_MAIN(TstGpuAnnotations)
#include "tst_gpu_annotations.moc"
