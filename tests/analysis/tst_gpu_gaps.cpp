// GPU idle gaps per stream and per device: expectations computed by hand in the comments.
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/ops/gpu_ops.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

class TstGpuGaps : public QObject {
    Q_OBJECT
private slots:
    void emptyTrace();
    void oneKernel();
    void basicGapsAndIntervals();
    void thresholdIsStrict_data();
    void thresholdIsStrict();
    void zeroLengthGapIsNoGap();
    void overlappingKernelsOnLanes();
    void previousKernelInStartOrder();
    void memcpyCountsBusyForDeviceOnly();
    void memcpyBetweenKernelsIsNoGap();
    void streamsMergeIntoDevice();
    void zeroLengthKernel();
    void devicesAreSeparate();
    void rangeRestriction();
    void manyStreamsUnion();
};

void TstGpuGaps::emptyTrace() {
    GpuTraceFixture f;
    f.cpuOp(0, 100);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 10);
    QCOMPARE(g.threshold, 10);
    QVERIFY(g.byStream.empty());
    QVERIFY(g.byDevice.empty());
    QVERIFY(g.streamGaps.empty());
    QVERIFY(g.deviceGaps.empty());
}

void TstGpuGaps::oneKernel() {
    GpuTraceFixture f;
    f.kernel(0, 7, 100, 50);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byStream.size(), size_t(1));
    const StreamGapStats& s = g.byStream[0];
    QCOMPARE(s.device, 0);
    QCOMPARE(s.stream, 7);
    QCOMPARE(s.kernels, 1u);
    QCOMPARE(s.gaps, 0u);
    QCOMPARE(s.gapsOverThreshold, 0u);
    QCOMPARE(s.idle, 0);
    QCOMPARE(s.longest, 0);
    QCOMPARE(s.firstStart, 100);
    QCOMPARE(s.lastEnd, 150);
    QCOMPARE(g.byDevice.size(), size_t(1));
    QCOMPARE(g.byDevice[0].ops, 1u);
    QCOMPARE(g.byDevice[0].gaps, 0u);
    QCOMPARE(g.byDevice[0].busy, 50);
    QCOMPARE(g.byDevice[0].firstStart, 100);
    QCOMPARE(g.byDevice[0].lastEnd, 150);
}

void TstGpuGaps::basicGapsAndIntervals() {
    // Stream 7: [0,10) [15,20) [40,50): gaps 15-10 = 5 and 40-20 = 20; idle 25, longest 20.
    GpuTraceFixture f;
    f.kernel(0, 7, 40, 10, "c"); // added out of order on purpose
    f.kernel(0, 7, 0, 10, "a");
    f.kernel(0, 7, 15, 5, "b");
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 10);
    QCOMPARE(g.byStream.size(), size_t(1));
    const StreamGapStats& s = g.byStream[0];
    QCOMPARE(s.kernels, 3u);
    QCOMPARE(s.gaps, 2u);
    QCOMPARE(s.gapsOverThreshold, 1u); // 20 > 10; 5 is not
    QCOMPARE(s.idle, 25);
    QCOMPARE(s.longest, 20);
    QCOMPARE(s.firstStart, 0);
    QCOMPARE(s.lastEnd, 50);
    QCOMPARE(g.streamGaps.size(), size_t(2));
    const GpuGap& g0 = g.streamGaps[0];
    QCOMPARE(g0.start, 10);
    QCOMPARE(g0.end, 15);
    QCOMPARE(g0.duration(), 5);
    QCOMPARE(g0.device, 0);
    QCOMPARE(g0.stream, 7);
    QCOMPARE(trace->name(g0.prev), std::string_view("a"));
    QCOMPARE(trace->name(g0.next), std::string_view("b"));
    const GpuGap& g1 = g.streamGaps[1];
    QCOMPARE(g1.start, 20);
    QCOMPARE(g1.end, 40);
    QCOMPARE(trace->name(g1.prev), std::string_view("b"));
    QCOMPARE(trace->name(g1.next), std::string_view("c"));
    // One stream only: the device sees the same holes.
    QCOMPARE(g.byDevice.size(), size_t(1));
    QCOMPARE(g.byDevice[0].gaps, 2u);
    QCOMPARE(g.byDevice[0].gapsOverThreshold, 1u);
    QCOMPARE(g.byDevice[0].idle, 25);
    QCOMPARE(g.byDevice[0].longest, 20);
    QCOMPARE(g.byDevice[0].busy, 25);
    QCOMPARE(g.deviceGaps.size(), size_t(2));
    QCOMPARE(g.deviceGaps[1].start, 20);
    QCOMPARE(g.deviceGaps[1].end, 40);
    QCOMPARE(g.deviceGaps[1].stream, -1);
    QCOMPARE(trace->name(g.deviceGaps[1].prev), std::string_view("b"));
    QCOMPARE(trace->name(g.deviceGaps[1].next), std::string_view("c"));
}

void TstGpuGaps::thresholdIsStrict_data() {
    // Stream gaps 5, 10 and 20 ns: [0,10) [15,20) [30,40) [60,70).
    QTest::addColumn<qint64>("threshold");
    QTest::addColumn<quint64>("over");
    QTest::newRow("0") << qint64(0) << quint64(3);
    QTest::newRow("4") << qint64(4) << quint64(3);
    QTest::newRow("5 (equal is not over)") << qint64(5) << quint64(2);
    QTest::newRow("9") << qint64(9) << quint64(2);
    QTest::newRow("10 (equal is not over)") << qint64(10) << quint64(1);
    QTest::newRow("19") << qint64(19) << quint64(1);
    QTest::newRow("20") << qint64(20) << quint64(0);
    QTest::newRow("1000") << qint64(1000) << quint64(0);
}

void TstGpuGaps::thresholdIsStrict() {
    QFETCH(qint64, threshold);
    QFETCH(quint64, over);
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 15, 5);
    f.kernel(0, 7, 30, 10);
    f.kernel(0, 7, 60, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, threshold);
    QCOMPARE(g.byStream[0].gaps, 3u);
    QCOMPARE(g.byStream[0].gapsOverThreshold, over);
    QCOMPARE(g.byStream[0].idle, 35);
    QCOMPARE(g.byDevice[0].gapsOverThreshold, over);
}

void TstGpuGaps::zeroLengthGapIsNoGap() {
    // [0,10) [10,20) [20,30): back to back, no gap anywhere.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 10, 10);
    f.kernel(0, 7, 20, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byStream[0].kernels, 3u);
    QCOMPARE(g.byStream[0].gaps, 0u);
    QCOMPARE(g.byStream[0].gapsOverThreshold, 0u);
    QCOMPARE(g.byStream[0].idle, 0);
    QCOMPARE(g.byDevice[0].gaps, 0u);
    QCOMPARE(g.byDevice[0].busy, 30);
    QVERIFY(g.streamGaps.empty());
    QVERIFY(g.deviceGaps.empty());
}

void TstGpuGaps::overlappingKernelsOnLanes() {
    // [0,100) and [50,150) overlap without nesting (the builder may use an overflow lane), then
    // [160,170). Sorted by start: 50 - 100 < 0 (no gap), 160 - 150 = 10. One stream entry.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "a");
    f.kernel(0, 7, 50, 100, "b");
    f.kernel(0, 7, 160, 10, "c");
    const auto trace = f.build();
    int lanes = 0;
    for (const Track& t : trace->tracks())
        if (t.kind == TrackKind::GpuStream && t.tid == 7 && t.slices.size() > 0) ++lanes;
    if (lanes < 2) qWarning("the builder kept the overlapping kernels on one lane");
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byStream.size(), size_t(1));
    QCOMPARE(g.byStream[0].kernels, 3u);
    QCOMPARE(g.byStream[0].gaps, 1u);
    QCOMPARE(g.byStream[0].idle, 10);
    QCOMPARE(g.streamGaps.size(), size_t(1));
    QCOMPARE(trace->name(g.streamGaps[0].prev), std::string_view("b"));
    QCOMPARE(trace->name(g.streamGaps[0].next), std::string_view("c"));
    QCOMPARE(g.byDevice[0].gaps, 1u);
    QCOMPARE(g.byDevice[0].idle, 10);
    QCOMPARE(g.byDevice[0].busy, 160);
}

void TstGpuGaps::previousKernelInStartOrder() {
    // A stream's gaps are the holes in the union of its ops: [0,100) contains [10,20) and
    // [30,40), so the stream is busy from 0 to 100 without a gap (as the device is).
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "outer");
    f.kernel(0, 7, 10, 10, "inner");
    f.kernel(0, 7, 30, 10, "after");
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byStream[0].gaps, 0u);
    QCOMPARE(g.byStream[0].idle, 0);
    QCOMPARE(g.byStream[0].lastEnd, 100);
    QCOMPARE(g.byDevice[0].gaps, 0u);
    QCOMPARE(g.byDevice[0].busy, 100);
}

void TstGpuGaps::memcpyCountsBusyForDeviceOnly() {
    // Kernels on stream 7: [0,10) and [50,60); memset on stream 7: [45,48); memcpy on stream 8:
    // [20,40). Copies and sets are busy time on their stream as on the device:
    // stream 7 union [0,10) [45,48) [50,60): holes 35 and 2 -> idle 37, longest 35 (one > 4);
    // stream 8: one op, no gap.
    // Device union: [0,10) [20,40) [45,48) [50,60): holes 10, 5, 2 -> idle 17, longest 10.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 50, 10);
    f.memcpy(0, 8, 20, 20);
    f.memset(0, 7, 45, 3);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 4);
    QCOMPARE(g.byStream.size(), size_t(2));
    QCOMPARE(g.byStream[0].stream, 7);
    QCOMPARE(g.byStream[0].kernels, 2u);
    QCOMPARE(g.byStream[0].ops, 3u);
    QCOMPARE(g.byStream[0].gaps, 2u);
    QCOMPARE(g.byStream[0].gapsOverThreshold, 1u);
    QCOMPARE(g.byStream[0].idle, 37);
    QCOMPARE(g.byStream[0].longest, 35);
    QCOMPARE(g.byStream[1].stream, 8);
    QCOMPARE(g.byStream[1].kernels, 0u);
    QCOMPARE(g.byStream[1].ops, 1u);
    QCOMPARE(g.byStream[1].gaps, 0u);
    QCOMPARE(trace->kind(g.streamGaps[1].prev), SliceKind::Memset);
    QCOMPARE(g.byDevice.size(), size_t(1));
    const DeviceGapStats& d = g.byDevice[0];
    QCOMPARE(d.ops, 4u);
    QCOMPARE(d.gaps, 3u);
    QCOMPARE(d.gapsOverThreshold, 2u); // 10 and 5 > 4; 2 is not
    QCOMPARE(d.idle, 17);
    QCOMPARE(d.longest, 10);
    QCOMPARE(d.busy, 43);
    QCOMPARE(d.firstStart, 0);
    QCOMPARE(d.lastEnd, 60);
    QCOMPARE(g.deviceGaps.size(), size_t(3));
    QCOMPARE(trace->kind(g.deviceGaps[0].next), SliceKind::Memcpy);
    QCOMPARE(trace->kind(g.deviceGaps[1].prev), SliceKind::Memcpy);
    QCOMPARE(trace->kind(g.deviceGaps[1].next), SliceKind::Memset);
}

void TstGpuGaps::memcpyBetweenKernelsIsNoGap() {
    // Issue 21's fixture: kernel [0,100) µs, memcpy [100,200) µs, kernel [200,300) µs on one
    // stream: the stream never idles (it was reported as a 100 µs gap).
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100'000);
    f.memcpy(0, 7, 100'000, 100'000);
    f.kernel(0, 7, 200'000, 100'000);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 10'000);
    QCOMPARE(g.byStream.size(), size_t(1));
    QCOMPARE(g.byStream[0].gaps, 0u);
    QCOMPARE(g.byStream[0].idle, 0);
    QCOMPARE(g.streamGaps.size(), size_t(0));
    QCOMPARE(g.byDevice[0].gaps, 0u);
}

void TstGpuGaps::streamsMergeIntoDevice() {
    // Stream 1: [0,10) [30,40); stream 2: [10,20) [50,60) (touches stream 1 at 10).
    // Stream gaps: s1 20, s2 30. Device union [0,20) [30,40) [50,60): holes 10 and 10.
    GpuTraceFixture f;
    f.kernel(0, 1, 0, 10);
    f.kernel(0, 1, 30, 10);
    f.kernel(0, 2, 10, 10);
    f.kernel(0, 2, 50, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 10);
    QCOMPARE(g.byStream.size(), size_t(2));
    QCOMPARE(g.byStream[0].stream, 1);
    QCOMPARE(g.byStream[0].idle, 20);
    QCOMPARE(g.byStream[0].gapsOverThreshold, 1u);
    QCOMPARE(g.byStream[1].stream, 2);
    QCOMPARE(g.byStream[1].idle, 30);
    QCOMPARE(g.byDevice[0].gaps, 2u);
    QCOMPARE(g.byDevice[0].gapsOverThreshold, 0u); // 10 is not > 10
    QCOMPARE(g.byDevice[0].idle, 20);
    QCOMPARE(g.byDevice[0].longest, 10);
}

void TstGpuGaps::zeroLengthKernel() {
    // [0,10), zero-length at 20, [30,40): it is a kernel, so it splits the gap in two.
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 20, 0);
    f.kernel(0, 7, 30, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 9);
    QCOMPARE(g.byStream[0].kernels, 3u);
    QCOMPARE(g.byStream[0].gaps, 2u);
    QCOMPARE(g.byStream[0].gapsOverThreshold, 2u);
    QCOMPARE(g.byStream[0].idle, 20);
    QCOMPARE(g.byStream[0].longest, 10);
    QCOMPARE(g.byDevice[0].gaps, 2u);
    QCOMPARE(g.byDevice[0].idle, 20);
    QCOMPARE(g.byDevice[0].busy, 20);
}

void TstGpuGaps::devicesAreSeparate() {
    // Device 0: [0,10) [100,110); device 1: [40,50) (fills device 0's hole in wall time, but
    // devices are separate).
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 100, 10);
    f.kernel(1, 7, 40, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byStream.size(), size_t(2));
    QCOMPARE(g.byStream[0].device, 0);
    QCOMPARE(g.byStream[0].idle, 90);
    QCOMPARE(g.byStream[1].device, 1);
    QCOMPARE(g.byStream[1].gaps, 0u);
    QCOMPARE(g.byDevice.size(), size_t(2));
    QCOMPARE(g.byDevice[0].idle, 90);
    QCOMPARE(g.byDevice[1].idle, 0);
    QCOMPARE(g.byDevice[1].ops, 1u);
}

void TstGpuGaps::rangeRestriction() {
    // Kernels at 0, 100, 200, 300 (dur 10) on stream 7. Range [50, 250): kernels at 100 and 200
    // (they START in it): one gap, 200 - 110 = 90. The gaps to 0 and 300 are outside.
    GpuTraceFixture f;
    for (int i = 0; i < 4; ++i) f.kernel(0, 7, i * 100, 10);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0, TimeRange{50, 250});
    QCOMPARE(g.range, (TimeRange{50, 250}));
    QCOMPARE(g.byStream.size(), size_t(1));
    QCOMPARE(g.byStream[0].kernels, 2u);
    QCOMPARE(g.byStream[0].gaps, 1u);
    QCOMPARE(g.byStream[0].idle, 90);
    QCOMPARE(g.byDevice[0].idle, 90);
    // A range that starts exactly at a kernel includes it; one that ends there excludes it.
    const GpuGaps h = computeGpuGaps(*trace, 0, TimeRange{100, 300});
    QCOMPARE(h.byStream[0].kernels, 2u);
    const GpuGaps empty = computeGpuGaps(*trace, 0, TimeRange{400, 500});
    QVERIFY(empty.byStream.empty());
    QVERIFY(empty.byDevice.empty());
    const GpuGaps whole = computeGpuGaps(*trace, 0);
    QCOMPARE(whole.byStream[0].gaps, 3u);
    QCOMPARE(whole.byStream[0].idle, 270);
}

void TstGpuGaps::manyStreamsUnion() {
    // Device 0, streams 1..5: [10,25) [20,35) [30,45) [40,55) [50,65) chain into one busy
    // interval [10,65); stream 6: [100,110). Device 1: [0,5). Six stream runs on device 0 merge
    // pairwise into three (an odd count), then two, then one.
    GpuTraceFixture f;
    for (int s = 1; s <= 5; ++s) f.kernel(0, s, s * 10, 15);
    f.kernel(0, 6, 100, 10);
    f.kernel(1, 1, 0, 5);
    const auto trace = f.build();
    const GpuGaps g = computeGpuGaps(*trace, 0);
    QCOMPARE(g.byDevice.size(), size_t(2));
    QCOMPARE(g.byDevice[0].busy, 65);
    QCOMPARE(g.byDevice[0].gaps, 1u);
    QCOMPARE(g.byDevice[0].idle, 35);
    QCOMPARE(g.byDevice[0].ops, 6u);
    QCOMPARE(g.byDevice[1].busy, 5);

    // Any input order gives the same union.
    const GpuOpList list = collectGpuOps(*trace);
    const std::vector<BusySegment> sorted = deviceBusySegments(list.ops);
    std::vector<GpuOp> reversed(list.ops.rbegin(), list.ops.rend());
    const std::vector<BusySegment> fromReversed = deviceBusySegments(reversed);
    QCOMPARE(sorted.size(), size_t(3));
    QCOMPARE(fromReversed.size(), sorted.size());
    for (size_t i = 0; i < sorted.size(); ++i) {
        QCOMPARE(fromReversed[i].device, sorted[i].device);
        QCOMPARE(fromReversed[i].start, sorted[i].start);
        QCOMPARE(fromReversed[i].end, sorted[i].end);
        QCOMPARE(fromReversed[i].ops, sorted[i].ops);
    }
    QCOMPARE(sorted[0].start, 10);
    QCOMPARE(sorted[0].end, 65);
    QCOMPARE(sorted[0].ops, 5u);
    QCOMPARE(trace->start(sorted[0].first), 10);
    QCOMPARE(trace->start(sorted[0].last), 50);
}

STRATA_TEST_GUILESS_MAIN(TstGpuGaps)
#include "tst_gpu_gaps.moc"
