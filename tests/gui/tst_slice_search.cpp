// Find slices by name: substring / regex, case, ordering, next/previous with wraparound.
#include "analysis/slice_search.h"
#include "model/build/trace_builder.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

namespace {

// Two tracks; names and starts chosen so that the time order interleaves the tracks.
//   cpu: aten::mm @0, aten::addmm @20, cudaLaunchKernel @40, ATen::MM_custom @60
//   gpu: gemm_kernel @10, gemm_kernel @50, memset @70
std::shared_ptr<const Trace> makeTrace() {
    TraceBuilder b;
    const TrackId cpu = b.threadTrack(1, 1);
    const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
    auto add = [&](TrackId t, const char* name, TimeNs s) {
        SliceInput in;
        in.start = s;
        in.dur = 5;
        in.name = b.intern(name);
        in.category = b.intern(t == cpu ? "cpu_op" : "kernel");
        in.kind = t == cpu ? SliceKind::CpuOp : SliceKind::Kernel;
        b.addSlice(t, in);
    };
    add(cpu, "aten::mm", 0);
    add(cpu, "aten::addmm", 20);
    add(cpu, "cudaLaunchKernel", 40);
    add(cpu, "ATen::MM_custom", 60);
    add(gpu, "gemm_kernel", 10);
    add(gpu, "gemm_kernel", 50);
    add(gpu, "memset", 70);
    return b.build();
}

QStringList names(const Trace& t, const SliceSearchResult& r) {
    QStringList out;
    for (SliceRef s : r.matches)
        out << QString::fromUtf8(t.name(s).data(), qsizetype(t.name(s).size()));
    return out;
}

} // namespace

class TestSliceSearch : public QObject {
    Q_OBJECT
private slots:
    void find_data();
    void find();
    void badRegex();
    void startsAreOrdered();
    void nextPrevious();
};

void TestSliceSearch::find_data() {
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("regex");
    QTest::addColumn<bool>("caseSensitive");
    QTest::addColumn<QStringList>("expected"); // in start order
    QTest::newRow("substring, any case")
        << "mm" << false << false
        << QStringList{"aten::mm", "gemm_kernel", "aten::addmm", "gemm_kernel", "ATen::MM_custom"};
    QTest::newRow("substring, case") << "MM" << false << true << QStringList{"ATen::MM_custom"};
    QTest::newRow("substring, upper any case")
        << "ATEN::" << false << false << QStringList{"aten::mm", "aten::addmm", "ATen::MM_custom"};
    QTest::newRow("regex anchored")
        << "^aten::(add)?mm$" << true << false << QStringList{"aten::mm", "aten::addmm"};
    QTest::newRow("regex case") << "^ATen" << true << true << QStringList{"ATen::MM_custom"};
    QTest::newRow("regex any case")
        << "^aten" << true << false << QStringList{"aten::mm", "aten::addmm", "ATen::MM_custom"};
    QTest::newRow("regex alternation")
        << "memset|launch" << true << false << QStringList{"cudaLaunchKernel", "memset"};
    QTest::newRow("regex chars literal as substring") << "(add)" << false << false << QStringList{};
    QTest::newRow("category is not a name") << "cpu_op" << false << false << QStringList{};
    QTest::newRow("empty pattern") << "" << false << false << QStringList{};
    QTest::newRow("no match") << "nccl" << false << false << QStringList{};
}

void TestSliceSearch::find() {
    QFETCH(QString, pattern);
    QFETCH(bool, regex);
    QFETCH(bool, caseSensitive);
    QFETCH(QStringList, expected);
    const auto t = makeTrace();
    const SliceSearchResult r = findSlices(*t, {pattern.toStdString(), regex, caseSensitive});
    QVERIFY(r.ok());
    QCOMPARE(names(*t, r), expected);
}

void TestSliceSearch::badRegex() {
    const auto t = makeTrace();
    const SliceSearchResult r = findSlices(*t, {"(unclosed", true, false});
    QVERIFY(!r.ok());
    QVERIFY(r.matches.empty());
    QVERIFY2(r.error.find("(unclosed") != std::string::npos, r.error.c_str());
}

void TestSliceSearch::startsAreOrdered() {
    const auto t = makeTrace();
    const SliceSearchResult r = findSlices(*t, {"_", false, false});
    // gemm_kernel @10, gemm_kernel @50, ATen::MM_custom @60
    QCOMPARE(r.matches.size(), size_t(3));
    QCOMPARE(t->start(r.matches[0]), TimeNs(10));
    QCOMPARE(t->start(r.matches[1]), TimeNs(50));
    QCOMPARE(t->start(r.matches[2]), TimeNs(60));
}

void TestSliceSearch::nextPrevious() {
    QCOMPARE(nextMatchIndex(0, -1, true), -1);
    QCOMPARE(nextMatchIndex(0, 3, false), -1);
    QCOMPARE(nextMatchIndex(3, -1, true), 0);
    QCOMPARE(nextMatchIndex(3, -1, false), 2);
    QCOMPARE(nextMatchIndex(3, 0, true), 1);
    QCOMPARE(nextMatchIndex(3, 2, true), 0);  // wraps forward
    QCOMPARE(nextMatchIndex(3, 0, false), 2); // wraps backward
    QCOMPARE(nextMatchIndex(3, 1, false), 0);
    QCOMPARE(nextMatchIndex(3, 7, true), 0); // stale index restarts
}

STRATA_TEST_GUILESS_MAIN(TestSliceSearch)
#include "tst_slice_search.moc"
