// The GPU lanes are in sight when a trace opens (issue 14): at 1600x900 the GPU streams' rows
// lie inside the visible track area, for a Python stack 40 levels deep and for the bundled
// sample; a deep CPU thread's single-slice levels fold into one with a "+39 levels" handle that
// expands it, and the choice survives zooming and panning; counter values are labelled in their
// unit.
#include "model/counter_units.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "timeline/track_tree_widget.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QtTest>

#include <fstream>

using namespace strata;

namespace {

const QString kSample = QStringLiteral(STRATA_SAMPLE_TRACE);

MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

// A Python thread 40 levels deep (python_function nests, as with_stack=True writes them) and a
// GPU with two streams, in Kineto's layout (sort indices: the CPU process's pid, 5000000 for
// GPU 0, so that without the GPU-first order the GPU comes after the CPU).
std::string deepStackTrace() {
    std::string s = "{\"traceEvents\":[\n";
    s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1000,\"tid\":0,\"args\":{\"name\":"
         "\"python\"}},\n";
    s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":"
         "\"python\"}},\n";
    s += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":1000,\"tid\":0,\"args\":{\"sort_"
         "index\":1000}},\n";
    s += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":0,\"tid\":0,\"args\":{\"sort_"
         "index\":5000000}},\n";
    for (int d = 0; d < 40; ++d)
        s += "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"f" + std::to_string(d) +
             "\",\"pid\":1000,\"tid\":1001,\"ts\":" + std::to_string(d) +
             ",\"dur\":" + std::to_string(1000 - 2 * d) + "},\n";
    for (int i = 0; i < 20; ++i)
        s += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":" +
             std::to_string(7 + i % 2) + ",\"ts\":" + std::to_string(50 + 40 * i) +
             ",\"dur\":20,\"args\":{\"device\":0,\"stream\":" + std::to_string(7 + i % 2) + "}}" +
             (i + 1 < 20 ? ",\n" : "\n");
    return s + "]}\n";
}

// The rows of GPU streams, in the view: each must lie inside the tracks area.
void checkGpuStreamsInView(MainWindow& w) {
    TimelineView* v = w.timeline();
    const QRect area = v->tracksArea()->rect();
    int streams = 0;
    for (TrackId t = 0; t < w.trace()->tracks().size(); ++t) {
        if (w.trace()->track(t).kind != TrackKind::GpuStream || w.trace()->track(t).lane) continue;
        const QRect r = v->trackRect(t);
        QVERIFY2(!r.isNull() && area.contains(r), qPrintable(QString("stream track %1 at y %2..%3, "
                                                                     "area height %4")
                                                                 .arg(t)
                                                                 .arg(r.top())
                                                                 .arg(r.bottom())
                                                                 .arg(area.height())));
        ++streams;
    }
    QVERIFY(streams > 0);
}

} // namespace

class TestGpuInView : public QObject {
    Q_OBJECT
private slots:
    void deepPythonStack() {
        QTemporaryDir dir;
        const QString path = dir.filePath("deep.json");
        std::ofstream(path.toStdString()) << deepStackTrace();
        MainWindow w(testOptions());
        w.resize(1600, 900);
        QVERIFY(w.openSync(OpenRequest::trace(path)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkGpuStreamsInView(w);

        // The thread's 40 levels hold one slice each across the view: folded into one level
        // (issue 28), with a handle for the 39 others (the row keeps room for it).
        TimelineView* v = w.timeline();
        TrackId thread = 0;
        while (w.trace()->track(thread).kind != TrackKind::Thread) ++thread;
        {
            const TrackRow& r = v->layout().rows()[size_t(v->layout().rowOfTrack(thread))];
            QCOMPARE(r.laneDepths.front(), 1);
            QCOMPARE(r.foldedDepths, 39);
        }
        const int capped = 2 * TrackLayout::kDepthHeight + TrackLayout::kRowPad;
        QCOMPARE(v->trackRect(thread).height(), capped);
        auto* tree = v->findChild<TrackTreeWidget*>();
        QVERIFY(tree);
        int row = -1;
        for (int i = 0; i < 20 && row < 0; ++i)
            if (!tree->levelsHandleRect(i).isNull()) row = i;
        QVERIFY(row >= 0);
        QTest::mouseClick(tree, Qt::LeftButton, {}, tree->levelsHandleRect(row).center());
        QCOMPARE(v->trackRect(thread).height(),
                 40 * TrackLayout::kDepthHeight + TrackLayout::kRowPad);
        // Zooming and panning keep it expanded.
        v->zoomBy(0.5, 100);
        v->panBy(50);
        QCOMPARE(v->trackRect(thread).height(),
                 40 * TrackLayout::kDepthHeight + TrackLayout::kRowPad);
        // And the View menu caps it again.
        w.action(QStringLiteral("actionCollapseThreads"))->trigger();
        QCOMPARE(v->trackRect(thread).height(), capped);
        // The GPU section below the CPU: the other order, from the View menu.
        const QRect gpuFirst = v->trackRect(thread);
        w.action(QStringLiteral("actionGpuFirst"))->trigger();
        QVERIFY(!v->gpuSectionFirst());
        QVERIFY(v->trackRect(thread).top() < gpuFirst.top());
    }

    void bundledSample() {
        MainWindow w(testOptions());
        w.resize(1600, 900);
        QVERIFY(w.openSync(OpenRequest::trace(kSample)));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkGpuStreamsInView(w);
    }

    void counterUnits() {
        QCOMPARE(counterUnit("GPU 0 memory allocated (bytes)"), CounterUnit::Bytes);
        QCOMPARE(counterUnit("Total Allocated"), CounterUnit::Bytes);
        QCOMPARE(counterUnit("GPU Utilization"), CounterUnit::Percent);
        QCOMPARE(counterUnit("SM occupancy"), CounterUnit::Percent);
        QCOMPARE(counterUnit("cc::Scheduler frames"), CounterUnit::Number);
        // 3.972e9 bytes = 3.699... GiB; 1536 B = 1.50 KiB; 0.5 % ; 1250000 = 1.25 M.
        QCOMPARE(formatCounterValue(3.972e9, CounterUnit::Bytes), std::string("3.70 GiB"));
        QCOMPARE(formatCounterValue(512, CounterUnit::Bytes), std::string("512 B"));
        QCOMPARE(formatCounterValue(1536, CounterUnit::Bytes), std::string("1.50 KiB"));
        QCOMPARE(formatCounterValue(153.6 * 1024 * 1024, CounterUnit::Bytes),
                 std::string("154 MiB"));
        QCOMPARE(formatCounterValue(45.25, CounterUnit::Percent), std::string("45 %"));
        QCOMPARE(formatCounterValue(0.5, CounterUnit::Percent), std::string("0.5 %"));
        QCOMPARE(formatCounterValue(1250000, CounterUnit::Number), std::string("1.25 M"));
        QCOMPARE(formatCounterValue(42, CounterUnit::Number), std::string("42"));
    }
};

STRATA_TEST_MAIN(TestGpuInView)
#include "tst_gpu_in_view.moc"
