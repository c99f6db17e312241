// The diff of two runs (core/analysis/trace_diff.h) on hand-made traces: rows matched by name,
// added, removed, changed by the rule without steps (count, or >= 5 % and >= 1 µs of the total)
// and by the step rule (the mean per step moved by more than twice its standard error and 1 %),
// sorted by effect. Expected values worked out by hand in the comments. The real-trace check
// (planted changes in a PyTorch trace) is tests/data/analysis/check_diff_planted.py.
#include "analysis/compare/trace_diff.h"
#include "analysis/trace_analysis.h"
#include "io/synthetic/synthetic_sections.h"
#include "io/trace_loader.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

constexpr TimeNs kUs = 1000;

const DiffRow* row(const std::vector<DiffRow>& rows, const std::string& name) {
    for (const DiffRow& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

// Four steps of 1 ms (ProfilerStep#1..4), kernel durations per step in µs for x, y and z.
std::shared_ptr<const Trace> steppedTrace(const double (&x)[4], const double (&y)[4],
                                          const double (&z)[4]) {
    GpuTraceFixture f;
    for (int i = 0; i < 4; ++i) {
        const TimeNs s = TimeNs(i) * 1000 * kUs;
        f.cpuOp(s, 1000 * kUs, "ProfilerStep#" + std::to_string(i + 1));
        f.kernel(0, 7, s + 10 * kUs, TimeNs(x[i] * kUs), "x");
        f.kernel(0, 7, s + 300 * kUs, TimeNs(y[i] * kUs), "y");
        f.kernel(0, 7, s + 600 * kUs, TimeNs(std::llround(z[i] * kUs)), "z");
    }
    return f.build();
}

} // namespace

class TestTraceDiff : public QObject {
    Q_OBJECT
private slots:
    void withoutSteps() {
        // baseline: a 10+10 µs, b 100 µs, d 5 µs, op "aten::mm" 50 µs
        // candidate: a 10.4+10 µs (+2 %: same), b 110 µs (+10 µs, +10 %: changed), d 5+5 µs
        // (count 1 -> 2: changed), c 30 µs (added); no aten::mm (removed)
        GpuTraceFixture fb, fc;
        fb.kernel(0, 7, 0, 10 * kUs, "a");
        fb.kernel(0, 7, 20 * kUs, 10 * kUs, "a");
        fb.kernel(0, 7, 40 * kUs, 100 * kUs, "b");
        fb.kernel(0, 7, 200 * kUs, 5 * kUs, "d");
        fb.cpuOp(0, 50 * kUs);
        fc.kernel(0, 7, 0, 10400, "a");
        fc.kernel(0, 7, 20 * kUs, 10 * kUs, "a");
        fc.kernel(0, 7, 40 * kUs, 110 * kUs, "b");
        fc.kernel(0, 7, 200 * kUs, 5 * kUs, "d");
        fc.kernel(0, 7, 210 * kUs, 5 * kUs, "d");
        fc.kernel(0, 7, 300 * kUs, 30 * kUs, "c");
        const TraceAnalysis a(fb.build()), b(fc.build());
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(!d.bySteps);
        QCOMPARE(d.kernels.size(), size_t(4));
        // By |delta total|: c +30 µs, b +10 µs, d +5 µs, a +0.4 µs.
        QCOMPARE(d.kernels[0].name, std::string("c"));
        QCOMPARE(d.kernels[1].name, std::string("b"));
        QCOMPARE(d.kernels[2].name, std::string("d"));
        QCOMPARE(d.kernels[3].name, std::string("a"));
        QCOMPARE(d.kernels[0].status, DiffStatus::Added);
        QCOMPARE(d.kernels[0].candidate.total, 30 * kUs);
        QCOMPARE(d.kernels[1].status, DiffStatus::Changed);
        QCOMPARE(d.kernels[1].deltaTotal(), 10 * kUs);
        QCOMPARE(d.kernels[1].deltaShare(), 0.1);
        QCOMPARE(d.kernels[2].status, DiffStatus::Changed);
        QCOMPARE(d.kernels[2].candidate.count, uint64_t(2));
        QCOMPARE(d.kernels[3].status, DiffStatus::Same);
        QCOMPARE(d.kernels[3].baseline.mean, 10000.0);
        QCOMPARE(d.kernels[3].candidate.median, TimeNs(10000)); // nearest rank of {10000, 10400}
        QCOMPARE(d.kernels[3].candidate.p95, TimeNs(10400));
        const DiffRow* mm = row(d.ops, "aten::mm");
        QVERIFY(mm);
        QCOMPARE(mm->status, DiffStatus::Removed);
        QCOMPARE(mm->baseline.total, 50 * kUs);
        QCOMPARE(d.devices.size(), size_t(1));
        QVERIFY(d.devices[0].baseline.present && d.devices[0].candidate.present);
    }

    void withItself() {
        const double x[4] = {100, 110, 90, 100}, y[4] = {100, 100, 100, 100},
                     z[4] = {100, 100, 100, 100};
        const auto t = steppedTrace(x, y, z);
        const TraceAnalysis a(t), b(t);
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(d.bySteps);
        for (const auto* rows : {&d.kernels, &d.ops, &d.copies})
            for (const DiffRow& r : *rows) QCOMPARE(r.status, DiffStatus::Same);
    }

    // Two single steps of one trace (issue 46: fewer than three steps, no reference): a kernel
    // launched in step 1 runs after step 1's CPU end, inside step 2's time. Step 1 [0, 1000 µs)
    // launches k1 [100, 200) and late [1100, 1300); step 2 [1000, 2000) launches k2 [1500,
    // 1600). Step 1 holds k1 and late (what it launched), step 2 k2 alone: late is removed in
    // step 2, not added there.
    void singleStepsKeepWhatTheyLaunched() {
        GpuTraceFixture f;
        f.cpuOp(0, 1000 * kUs, "ProfilerStep#1");
        f.cpuOp(1000 * kUs, 1000 * kUs, "ProfilerStep#2");
        f.launch(50 * kUs, 10 * kUs, 1);
        f.kernel(0, 7, 100 * kUs, 100 * kUs, "k1", 1);
        f.launch(900 * kUs, 10 * kUs, 2);
        f.kernel(0, 7, 1100 * kUs, 200 * kUs, "late", 2);
        f.launch(1400 * kUs, 10 * kUs, 3);
        f.kernel(0, 7, 1500 * kUs, 100 * kUs, "k2", 3);
        const auto t = f.build();
        const TimeNs origin = t->bounds().start;
        const TraceAnalysis b(t, {}, {origin + 0, origin + 1000 * kUs});
        const TraceAnalysis c(t, {}, {origin + 1000 * kUs, origin + 2000 * kUs});
        const TraceDiff d = diffTraces(b, c);
        QCOMPARE(d.baselineSteps, size_t(1));
        QCOMPARE(d.candidateSteps, size_t(1));
        QVERIFY(!d.bySteps);
        const DiffRow* late = row(d.kernels, "late");
        QVERIFY(late);
        QCOMPARE(late->baseline.count, uint64_t(1));
        QCOMPARE(late->candidate.count, uint64_t(0));
        QCOMPARE(int(late->status), int(DiffStatus::Removed));
        const DiffRow* k2 = row(d.kernels, "k2");
        QVERIFY(k2);
        QCOMPARE(int(k2->status), int(DiffStatus::Added));
        QCOMPARE(k2->candidate.total, TimeNs(100 * kUs));
    }

    void bySteps() {
        // x: 100 110 90 100 -> 104 114 94 104: mean 100 -> 104 µs, each side's spread
        //    sqrt((0 + 100 + 100 + 0) / 3) = 8.165 µs; standard error sqrt(2 * 66.67 / 4) =
        //    5.77 µs: 4 < 11.5, within the spread: same (without steps +4 % would be the same too).
        // y: 100 x4 -> 101 x4: no spread, 1 µs >= 1 % of 100 µs: changed (+1 %: without steps,
        //    the same).
        // z: 100 x4 -> 100.5 x4: 0.5 µs < 1 %: same.
        const double xb[4] = {100, 110, 90, 100}, xc[4] = {104, 114, 94, 104};
        const double yb[4] = {100, 100, 100, 100}, yc[4] = {101, 101, 101, 101};
        const double zb[4] = {100, 100, 100, 100}, zc[4] = {100.5, 100.5, 100.5, 100.5};
        const TraceAnalysis a(steppedTrace(xb, yb, zb)), b(steppedTrace(xc, yc, zc));
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(d.bySteps);
        QCOMPARE(d.baselineSteps, size_t(4));
        QCOMPARE(d.candidateSteps, size_t(4));
        const DiffRow* x = row(d.kernels, "x");
        const DiffRow* y = row(d.kernels, "y");
        const DiffRow* z = row(d.kernels, "z");
        QVERIFY(x && y && z);
        QCOMPARE(x->baseline.stepMean, 100000.0);
        QVERIFY(std::abs(x->baseline.stepSpread - 8164.97) < 0.01);
        QCOMPARE(x->status, DiffStatus::Same);
        QCOMPARE(y->status, DiffStatus::Changed);
        QCOMPARE(z->status, DiffStatus::Same);
        // The step slices are CPU ops themselves: each name once per step, the same both sides.
        const DiffRow* step1 = row(d.ops, "ProfilerStep#1");
        QVERIFY(step1);
        QCOMPARE(step1->status, DiffStatus::Same);
    }

    // A kernel launched with other grids in the candidate: a row per launch configuration.
    // Baseline: "k" on grid 128 twice (10 µs each); candidate: grid 128 once (10 µs) and grid
    // 256 once (30 µs). "m" on grids 64 and 32 on both sides keeps one row.
    void byLaunchConfiguration() {
        GpuTraceFixture fb, fc;
        fb.kernelWithGrid(0, 7, 0, 10 * kUs, "k", {128, 1, 1});
        fb.kernelWithGrid(0, 7, 20 * kUs, 10 * kUs, "k", {128, 1, 1});
        fb.kernel(0, 7, 40 * kUs, 5 * kUs, "other");
        fb.kernelWithGrid(0, 7, 50 * kUs, 5 * kUs, "m", {64, 1, 1});
        fb.kernelWithGrid(0, 7, 60 * kUs, 5 * kUs, "m", {32, 1, 1});
        fc.kernelWithGrid(0, 7, 70 * kUs, 5 * kUs, "m", {64, 1, 1});
        fc.kernelWithGrid(0, 7, 80 * kUs, 5 * kUs, "m", {32, 1, 1});
        fc.kernelWithGrid(0, 7, 0, 10 * kUs, "k", {128, 1, 1});
        fc.kernelWithGrid(0, 7, 20 * kUs, 30 * kUs, "k", {256, 1, 1});
        fc.kernel(0, 7, 60 * kUs, 5 * kUs, "other");
        const TraceAnalysis a(fb.build()), b(fc.build());
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(!row(d.kernels, "k"));
        const DiffRow* k128 = row(d.kernels, "k [grid 128x1x1, block 256x1x1]");
        const DiffRow* k256 = row(d.kernels, "k [grid 256x1x1, block 256x1x1]");
        QVERIFY(k128 && k256);
        QCOMPARE(k128->baseline.count, uint64_t(2));
        QCOMPARE(k128->candidate.count, uint64_t(1));
        QCOMPARE(k128->deltaTotal(), -10 * kUs);
        QCOMPARE(k128->status, DiffStatus::Changed);
        QCOMPARE(k256->status, DiffStatus::Added);
        QCOMPARE(k256->candidate.total, 30 * kUs);
        QCOMPARE(row(d.kernels, "other")->status, DiffStatus::Same); // one grid: by name
        QCOMPARE(row(d.kernels, "m")->status, DiffStatus::Same);
        QCOMPARE(d.kernels.size(), size_t(4));
    }

    // In-kernel sections: the synthetic tiled matmul recorded twice, the second with the SM clock
    // at 1.755 GHz / 1.2, so every section's cycles (the same: same seed) take 1.2x the time.
    // Counts: 2 launches x 64 blocks x 4 tiles for "load tile" and "compute", x 1 for "store".
    void sectionsCompared() {
        QTemporaryDir dir;
        SynthSectionsOptions o;
        o.launches = 2;
        o.blocks = 64;
        o.tiles = 4;
        SynthSectionsTotals tb, tc;
        std::string error;
        const std::string a = dir.filePath("a.strata").toStdString();
        const std::string b = dir.filePath("b.strata").toStdString();
        QVERIFY2(writeSyntheticSections(a, o, &tb, &error), error.c_str());
        o.clockHz = 1.755e9 / 1.2;
        QVERIFY2(writeSyntheticSections(b, o, &tc, &error), error.c_str());
        const LoadResult la = loadTrace(a), lb = loadTrace(b);
        QVERIFY(la.ok() && lb.ok());
        const TraceAnalysis ta(la.trace), tcand(lb.trace);
        const TraceDiff same = diffTraces(ta, ta);
        QCOMPARE(same.sections.size(), size_t(3));
        for (const DiffRow& r : same.sections) QCOMPARE(r.status, DiffStatus::Same);
        const TraceDiff d = diffTraces(ta, tcand);
        QVERIFY(d.sectionsInNs);
        QCOMPARE(d.sections.size(), size_t(3));
        const char* names[3] = {"load tile", "compute", "store"};
        for (int k = 0; k < 3; ++k) {
            const DiffRow* r = nullptr;
            for (const DiffRow& x : d.sections)
                if (x.name.size() > 3 && x.name.ends_with(std::string(" / ") + names[k])) r = &x;
            QVERIFY2(r, names[k]);
            const uint64_t count = 2 * 64 * (k == 2 ? 1 : 4);
            QCOMPARE(r->baseline.count, count);
            QCOMPARE(r->candidate.count, count);
            QCOMPARE(tc.cyclesBySection[k], tb.cyclesBySection[k]);
            const double base = double(tb.cyclesBySection[k]) * 1e9 / 1.755e9;
            QVERIFY(std::abs(double(r->baseline.total) - base) <= 1);
            QVERIFY(std::abs(double(r->candidate.total) - 1.2 * base) <= 1);
            QCOMPARE(r->status, DiffStatus::Changed);
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceDiff)
#include "tst_trace_diff.moc"
