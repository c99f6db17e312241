// Kernel statistics and duration summaries: expectations computed by hand in the comments.
#include "analysis/duration_stats.h"
#include "analysis/ops/kernel_stats.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

class TstKernelStats : public QObject {
    Q_OBJECT
private slots:
    void percentile_data();
    void percentile();
    void summarizeEmpty();
    void emptyTrace();
    void cpuOnlyTrace();
    void oneKernel();
    void percentilesOfOneName();
    void sortedByTotalThenName();
    void memcpyAndMemsetCountAsBusy();
    void busySummedOverDevices();
    void overlappingKernelsShareAboveOne();
    void lanesOfOneStream();
    void zeroLengthKernel();
    void rangeRestriction();
};

void TstKernelStats::percentile_data() {
    QTest::addColumn<QList<qint64>>("values"); // sorted
    QTest::addColumn<uint>("percent");
    QTest::addColumn<qint64>("expected");
    // Nearest rank: index ceil(p * n / 100) - 1.
    QTest::newRow("n1 p50") << QList<qint64>{7} << 50u << qint64(7);
    QTest::newRow("n1 p95") << QList<qint64>{7} << 95u << qint64(7);
    QTest::newRow("n2 p50 lower middle") << QList<qint64>{1, 9} << 50u << qint64(1);
    QTest::newRow("n2 p95") << QList<qint64>{1, 9} << 95u << qint64(9);
    QTest::newRow("n3 p50") << QList<qint64>{1, 2, 3} << 50u << qint64(2);
    QTest::newRow("n4 p50") << QList<qint64>{1, 2, 3, 4} << 50u << qint64(2);
    QTest::newRow("n4 p95") << QList<qint64>{1, 2, 3, 4} << 95u << qint64(4);
    QList<qint64> twenty;
    for (int i = 1; i <= 20; ++i) twenty << i * 10;
    // ceil(0.95 * 20) = 19 exactly: the 19th value, not the 20th.
    QTest::newRow("n20 p95 exact rank") << twenty << 95u << qint64(190);
    QTest::newRow("n20 p50") << twenty << 50u << qint64(100);
    QTest::newRow("n20 p100") << twenty << 100u << qint64(200);
    QTest::newRow("n20 p1") << twenty << 1u << qint64(10);
    QList<qint64> hundredOne;
    for (int i = 1; i <= 101; ++i) hundredOne << i;
    // ceil(95 * 101 / 100) = ceil(95.95) = 96.
    QTest::newRow("n101 p95") << hundredOne << 95u << qint64(96);
    QTest::newRow("n101 p50") << hundredOne << 50u << qint64(51);
}

void TstKernelStats::percentile() {
    QFETCH(QList<qint64>, values);
    QFETCH(uint, percent);
    QFETCH(qint64, expected);
    std::vector<TimeNs> v(values.begin(), values.end());
    QCOMPARE(nearestRankPercentile(v, percent), expected);
}

void TstKernelStats::summarizeEmpty() {
    std::vector<TimeNs> none;
    const DurationStats s = summarizeDurations(none);
    QCOMPARE(s.count, 0u);
    QCOMPARE(s.total, 0);
    QCOMPARE(s.min, 0);
    QCOMPARE(s.max, 0);
    QCOMPARE(s.mean, 0.0);
    QCOMPARE(nearestRankPercentile(none, 50), 0);
}

void TstKernelStats::emptyTrace() {
    GpuTraceFixture f;
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 0u);
    QCOMPARE(s.memcpys, 0u);
    QCOMPARE(s.memsets, 0u);
    QCOMPARE(s.kernelTime, 0);
    QCOMPARE(s.busyTime, 0);
    QVERIFY(s.byName.empty());
    QVERIFY(s.byDevice.empty());
}

void TstKernelStats::cpuOnlyTrace() {
    GpuTraceFixture f;
    f.cpuOp(0, 1000);
    f.launch(100, 50, 1);
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 0u);
    QVERIFY(s.byDevice.empty());
}

void TstKernelStats::oneKernel() {
    GpuTraceFixture f;
    f.kernel(0, 7, 1000, 250, "gemm");
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 1u);
    QCOMPARE(s.kernelTime, 250);
    QCOMPARE(s.busyTime, 250);
    QCOMPARE(s.byName.size(), size_t(1));
    const KernelNameStats& k = s.byName[0];
    QCOMPARE(k.name, std::string("gemm"));
    QCOMPARE(k.time.count, 1u);
    QCOMPARE(k.time.total, 250);
    QCOMPARE(k.time.min, 250);
    QCOMPARE(k.time.max, 250);
    QCOMPARE(k.time.median, 250);
    QCOMPARE(k.time.p95, 250);
    QCOMPARE(k.time.mean, 250.0);
    QCOMPARE(k.shareOfBusy, 1.0);
    QCOMPARE(s.byDevice.size(), size_t(1));
    QCOMPARE(s.byDevice[0].device, 0);
    QCOMPARE(s.byDevice[0].kernels, 1u);
    QCOMPARE(s.byDevice[0].busyTime, 250);
}

void TstKernelStats::percentilesOfOneName() {
    // 20 kernels "k" with durations 10, 20, ..., 200 ns, added in a scrambled order, back to back
    // on one stream with 1000 ns between starts.
    GpuTraceFixture f;
    const int order[20] = {7, 3, 19, 0, 12, 5, 16, 1, 9, 14, 2, 18, 6, 11, 4, 17, 8, 13, 10, 15};
    for (int i = 0; i < 20; ++i) f.kernel(0, 7, i * 1000, (order[i] + 1) * 10);
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.byName.size(), size_t(1));
    const DurationStats& t = s.byName[0].time;
    QCOMPARE(t.count, 20u);
    QCOMPARE(t.total, 2100); // 10 * (1 + ... + 20) = 10 * 210
    QCOMPARE(t.min, 10);
    QCOMPARE(t.max, 200);
    QCOMPARE(t.mean, 105.0);
    QCOMPARE(t.median, 100); // rank ceil(0.5 * 20) = 10 -> 100
    QCOMPARE(t.p95, 190);    // rank ceil(0.95 * 20) = 19 -> 190
    // No overlap: busy = sum of durations, share 1.
    QCOMPARE(s.busyTime, 2100);
    QCOMPARE(s.byName[0].shareOfBusy, 1.0);
}

void TstKernelStats::sortedByTotalThenName() {
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "b");
    f.kernel(0, 7, 200, 300, "small_then_big"); // total 300
    f.kernel(0, 7, 600, 100, "a");              // "a" and "b" tie at 100: name order
    f.kernel(0, 7, 800, 50, "c");
    f.kernel(0, 7, 900, 50, "c"); // "c": 2 kernels, total 100, ties with a and b
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.byName.size(), size_t(4));
    QCOMPARE(s.byName[0].name, std::string("small_then_big"));
    QCOMPARE(s.byName[1].name, std::string("a"));
    QCOMPARE(s.byName[2].name, std::string("b"));
    QCOMPARE(s.byName[3].name, std::string("c"));
    QCOMPARE(s.byName[3].time.count, 2u);
    QCOMPARE(s.byName[3].time.median, 50);
    QCOMPARE(s.kernels, 5u);
    QCOMPARE(s.kernelTime, 600);
}

void TstKernelStats::memcpyAndMemsetCountAsBusy() {
    // Device 0: kernel [0, 100) on stream 7, memcpy [50, 200) on stream 8, memset [300, 310)
    // on stream 7. Union = [0, 200) + [300, 310) = 210.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "k");
    f.memcpy(0, 8, 50, 150);
    f.memset(0, 7, 300, 10);
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 1u);
    QCOMPARE(s.memcpys, 1u);
    QCOMPARE(s.memsets, 1u);
    QCOMPARE(s.kernelTime, 100);
    QCOMPARE(s.busyTime, 210);
    QCOMPARE(s.byDevice.size(), size_t(1));
    QCOMPARE(s.byDevice[0].memcpyTime, 150);
    QCOMPARE(s.byDevice[0].memsetTime, 10);
    QCOMPARE(s.byName.size(), size_t(1)); // copies and sets are not kernel names
    QCOMPARE(s.byName[0].shareOfBusy, 100.0 / 210.0);
}

void TstKernelStats::busySummedOverDevices() {
    // Device 0: [0, 100); device 1: [0, 100) and [50, 250) -> union [0, 250).
    // Busy = 100 + 250 = 350 (the same instant on two devices counts twice).
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "x");
    f.kernel(1, 7, 0, 100, "x");
    f.kernel(1, 9, 50, 200, "y");
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.busyTime, 350);
    QCOMPARE(s.kernelTime, 400);
    QCOMPARE(s.byDevice.size(), size_t(2));
    QCOMPARE(s.byDevice[0].device, 0);
    QCOMPARE(s.byDevice[0].kernelTime, 100);
    QCOMPARE(s.byDevice[0].busyTime, 100);
    QCOMPARE(s.byDevice[1].device, 1);
    QCOMPARE(s.byDevice[1].kernelTime, 300);
    QCOMPARE(s.byDevice[1].busyTime, 250);
    QCOMPARE(s.byName[0].name, std::string("x")); // 200 vs 200: tie, name order
    QCOMPARE(s.byName[0].shareOfBusy, 200.0 / 350.0);
    QCOMPARE(s.byName[1].shareOfBusy, 200.0 / 350.0);
}

void TstKernelStats::overlappingKernelsShareAboveOne() {
    // Two streams of one device run [0, 100) and [0, 100): busy 100, kernel time 200.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "k");
    f.kernel(0, 8, 0, 100, "k");
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.busyTime, 100);
    QCOMPARE(s.byName[0].time.total, 200);
    QCOMPARE(s.byName[0].shareOfBusy, 2.0);
}

void TstKernelStats::lanesOfOneStream() {
    // [0, 100) and [50, 150) overlap without nesting on one stream: the builder may put the
    // second on an overflow lane; the analysis must see one stream either way.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "k");
    f.kernel(0, 7, 50, 100, "k");
    f.kernel(0, 7, 60, 10, "k"); // nested in both
    const auto trace = f.build();
    int streamTracks = 0;
    for (const Track& t : trace->tracks())
        if (t.kind == TrackKind::GpuStream && t.slices.size() > 0) ++streamTracks;
    if (streamTracks < 2) qWarning("the builder kept the overlapping kernels on one lane");
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 3u);
    QCOMPARE(s.byName.size(), size_t(1));
    QCOMPARE(s.byName[0].time.total, 210);
    QCOMPARE(s.busyTime, 150);
    QCOMPARE(s.byDevice.size(), size_t(1));
}

void TstKernelStats::zeroLengthKernel() {
    GpuTraceFixture f;
    f.kernel(0, 7, 100, 0, "empty");
    f.kernel(0, 7, 200, 10, "k");
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace);
    QCOMPARE(s.kernels, 2u);
    QCOMPARE(s.busyTime, 10);
    QCOMPARE(s.byName.size(), size_t(2));
    QCOMPARE(s.byName[0].name, std::string("k"));
    QCOMPARE(s.byName[1].name, std::string("empty"));
    QCOMPARE(s.byName[1].time.count, 1u);
    QCOMPARE(s.byName[1].time.total, 0);
    QCOMPARE(s.byName[1].shareOfBusy, 0.0);
}

void TstKernelStats::rangeRestriction() {
    // Kernels start at 0, 100, 200, 300 (dur 50, 60, 70, 80). Range [100, 300): the kernels that
    // START in it are those at 100 and 200, counted in full; [0,50) and [300,380) are out.
    // A kernel starting at 90 (dur 40) overlaps the range but starts before it: out.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 50, "a");
    f.kernel(0, 8, 90, 40, "early");
    f.kernel(0, 7, 100, 60, "b");
    f.kernel(0, 7, 200, 70, "c");
    f.kernel(0, 7, 300, 80, "d");
    f.memcpy(0, 9, 299, 100); // starts in range, runs past its end: counted in full
    const auto trace = f.build();
    const KernelStats s = computeKernelStats(*trace, TimeRange{100, 300});
    QCOMPARE(s.kernels, 2u);
    QCOMPARE(s.memcpys, 1u);
    QCOMPARE(s.kernelTime, 130);
    QCOMPARE(s.busyTime, 60 + 70 + 100);
    QCOMPARE(s.byName.size(), size_t(2));
    QCOMPARE(s.byName[0].name, std::string("c"));
    QCOMPARE(s.byName[1].name, std::string("b"));
    QCOMPARE(s.range, (TimeRange{100, 300}));

    const KernelStats none = computeKernelStats(*trace, TimeRange{1000, 2000});
    QCOMPARE(none.kernels, 0u);
    QCOMPARE(none.busyTime, 0);
    // Adjacent ranges partition the kernels.
    const KernelStats left = computeKernelStats(*trace, TimeRange{0, 150});
    const KernelStats right = computeKernelStats(*trace, TimeRange{150, 1000});
    QCOMPARE(left.kernels + right.kernels, 5u);
}

STRATA_TEST_GUILESS_MAIN(TstKernelStats)
#include "tst_kernel_stats.moc"
