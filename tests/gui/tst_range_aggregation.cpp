// Range aggregation: slices in a time range grouped by name, with clipped total and self time.
// Expected numbers computed by hand from the trace drawn below.
#include "analysis/range_aggregation.h"
#include "model/build/trace_builder.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

namespace {

// Thread track (pid 1, tid 1):
//   outer [0,100)                              outer [200,300)
//     inner [10,40)        inner [50,70)
//       leaf [15,25)
//   mark [150,150) (zero length)
// GPU stream track (device 0, stream 7): kern [30,60), kern [65,90)
struct Fixture {
    std::shared_ptr<const Trace> trace;
    TrackId cpu = 0, gpu = 0;
};

Fixture makeTrace() {
    TraceBuilder b;
    Fixture f;
    f.cpu = b.threadTrack(1, 1);
    f.gpu = b.gpuStreamTrack(0, 7, 0, 7);
    auto add = [&](TrackId t, const char* name, TimeNs s, TimeNs d, SliceKind k) {
        SliceInput in;
        in.start = s;
        in.dur = d;
        in.name = b.intern(name);
        in.category = b.intern(k == SliceKind::Kernel ? "kernel" : "cpu_op");
        in.kind = k;
        b.addSlice(t, in);
    };
    add(f.cpu, "outer", 0, 100, SliceKind::CpuOp);
    add(f.cpu, "inner", 10, 30, SliceKind::CpuOp);
    add(f.cpu, "leaf", 15, 10, SliceKind::CpuOp);
    add(f.cpu, "inner", 50, 20, SliceKind::CpuOp);
    add(f.cpu, "mark", 150, 0, SliceKind::CpuOp);
    add(f.cpu, "outer", 200, 100, SliceKind::CpuOp);
    add(f.gpu, "kern", 30, 30, SliceKind::Kernel);
    add(f.gpu, "kern", 65, 25, SliceKind::Kernel);
    f.trace = b.build();
    return f;
}

const RangeAggregateRow* rowNamed(const Trace& t, const RangeAggregation& a, const char* name) {
    for (const auto& r : a.rows) {
        if (t.str(r.name) == name) return &r;
    }
    return nullptr;
}

} // namespace

class TestRangeAggregation : public QObject {
    Q_OBJECT
private slots:
    void partialRange_data();
    void partialRange();
    void sortedByTotal();
    void zeroLengthSlices();
    void emptyAndOutside();
    void trackFilter();
};

void TestRangeAggregation::partialRange_data() {
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("count");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("self");
    QTest::addColumn<qint64>("max");
    QTest::addColumn<int>("sliceCount");
    // [20,60): outer clip 40, children inner 20 + inner 10 -> self 10.
    QTest::newRow("mid outer") << qint64(20) << qint64(60) << "outer" << 1 << qint64(40)
                               << qint64(10) << qint64(40) << 5;
    // inner [10,40) clip 20, minus leaf clip [20,25)=5 -> 15; inner [50,70) clip 10, self 10.
    QTest::newRow("mid inner") << qint64(20) << qint64(60) << "inner" << 2 << qint64(30)
                               << qint64(25) << qint64(20) << 5;
    QTest::newRow("mid leaf") << qint64(20) << qint64(60) << "leaf" << 1 << qint64(5) << qint64(5)
                              << qint64(5) << 5;
    QTest::newRow("mid kern") << qint64(20) << qint64(60) << "kern" << 1 << qint64(30) << qint64(30)
                              << qint64(30) << 5;
    // Whole trace: outer 100-30-20=50 and 100 -> self 150.
    QTest::newRow("all outer") << qint64(0) << qint64(300) << "outer" << 2 << qint64(200)
                               << qint64(150) << qint64(100) << 8;
    QTest::newRow("all inner") << qint64(0) << qint64(300) << "inner" << 2 << qint64(50)
                               << qint64(40) << qint64(30) << 8;
    QTest::newRow("all kern") << qint64(0) << qint64(300) << "kern" << 2 << qint64(55) << qint64(55)
                              << qint64(30) << 8;
    QTest::newRow("all mark") << qint64(0) << qint64(300) << "mark" << 1 << qint64(0) << qint64(0)
                              << qint64(0) << 8;
    // [12,16): outer 4, inner 4 (self 3), leaf [15,16) 1.
    QTest::newRow("narrow inner") << qint64(12) << qint64(16) << "inner" << 1 << qint64(4)
                                  << qint64(3) << qint64(4) << 3;
    QTest::newRow("narrow outer") << qint64(12) << qint64(16) << "outer" << 1 << qint64(4)
                                  << qint64(0) << qint64(4) << 3;
    // [95,210): outer [0,100) clip 5 and outer [200,300) clip 10; mark at 150.
    QTest::newRow("across gap") << qint64(95) << qint64(210) << "outer" << 2 << qint64(15)
                                << qint64(15) << qint64(10) << 3;
}

void TestRangeAggregation::partialRange() {
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(QString, name);
    QFETCH(int, count);
    QFETCH(qint64, total);
    QFETCH(qint64, self);
    QFETCH(qint64, max);
    QFETCH(int, sliceCount);
    const Fixture f = makeTrace();
    const RangeAggregation a = aggregateRange(*f.trace, TimeRange{start, end});
    QCOMPARE(a.sliceCount, size_t(sliceCount));
    const RangeAggregateRow* r = rowNamed(*f.trace, a, name.toUtf8().constData());
    QVERIFY2(r, qPrintable(name));
    QCOMPARE(r->count, size_t(count));
    QCOMPARE(r->total, total);
    QCOMPARE(r->self, self);
    QCOMPARE(r->maxDuration, max);
}

void TestRangeAggregation::sortedByTotal() {
    const Fixture f = makeTrace();
    const RangeAggregation a = aggregateRange(*f.trace, TimeRange{0, 300});
    // outer 200, kern 55, inner 50, leaf 10, mark 0.
    QCOMPARE(a.rows.size(), size_t(5));
    QCOMPARE(f.trace->str(a.rows[0].name), std::string_view("outer"));
    QCOMPARE(f.trace->str(a.rows[1].name), std::string_view("kern"));
    QCOMPARE(f.trace->str(a.rows[2].name), std::string_view("inner"));
    QCOMPARE(f.trace->str(a.rows[3].name), std::string_view("leaf"));
    QCOMPARE(f.trace->str(a.rows[4].name), std::string_view("mark"));
}

void TestRangeAggregation::zeroLengthSlices() {
    const Fixture f = makeTrace();
    // A zero-length slice counts if it starts in [start, end).
    QCOMPARE(aggregateRange(*f.trace, TimeRange{150, 160}).sliceCount, size_t(1));
    QCOMPARE(aggregateRange(*f.trace, TimeRange{140, 150}).sliceCount, size_t(0));
}

void TestRangeAggregation::emptyAndOutside() {
    const Fixture f = makeTrace();
    // [100,150) touches outer's end and mark's start only: nothing overlaps.
    QCOMPARE(aggregateRange(*f.trace, TimeRange{100, 150}).sliceCount, size_t(0));
    QVERIFY(aggregateRange(*f.trace, TimeRange{100, 150}).rows.empty());
    QCOMPARE(aggregateRange(*f.trace, TimeRange{60, 60}).sliceCount, size_t(0));
    QCOMPARE(aggregateRange(*f.trace, TimeRange{400, 500}).sliceCount, size_t(0));
}

void TestRangeAggregation::trackFilter() {
    const Fixture f = makeTrace();
    const RangeAggregation a = aggregateRange(*f.trace, TimeRange{0, 300}, {f.gpu});
    QCOMPARE(a.sliceCount, size_t(2));
    QCOMPARE(a.rows.size(), size_t(1));
    QCOMPARE(a.rows[0].total, TimeNs(55));
}

STRATA_TEST_GUILESS_MAIN(TestRangeAggregation)
#include "tst_range_aggregation.moc"
