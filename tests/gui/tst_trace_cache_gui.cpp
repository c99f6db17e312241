// The trace cache and the first picture in the window (issue 33): a trace opened once is kept in
// the cache in the background and opens from it the next time, the same on screen pixel for
// pixel, the status bar saying where it came from; Settings > Trace Cache turns it off and
// clears it; the loading page's preview paints each GPU stream's busy share where it is.
#include "analysis_views/stats_panel.h"
#include "open/trace_cache_controller.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "timeline/load_preview_view.h"
#include "timeline/timeline_view.h"
#include "workspace/analyses.h"

#include "workspace/rank_set.h"

#include <QDir>
#include <QMenuBar>

#include <cstdio>
#include <filesystem>

class TestTraceCacheGui : public QObject {
    Q_OBJECT
    QTemporaryDir cacheHome_;
    const QString trace_ =
        QStringLiteral(STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");

    QImage openAndGrab(MainWindow& w, QString* status) {
        w.resize(1400, 800);
        QString error;
        if (!w.openSync(OpenRequest::trace(trace_), &error)) qWarning("%s", qPrintable(error));
        w.show();
        QTest::qWait(50);
        *status = w.statusText();
        return w.timeline()->grab().toImage();
    }
    size_t entries() const {
        return TraceCache(TraceCacheSettings{true, cacheHome_.filePath("strata").toStdString()})
            .entryCount();
    }

private slots:
    void initTestCase() {
        initMainWindowTests();
        QVERIFY(cacheHome_.isValid());
        qputenv("XDG_CACHE_HOME", cacheHome_.path().toUtf8());
        qputenv("STRATA_CACHE_MIN_BYTES", "1"); // this small trace is cached too
    }

    void secondOpenFromTheCache() {
        QString status1, status2;
        QImage first, second;
        {
            MainWindow w(testOptions());
            first = openAndGrab(w, &status1);
            QVERIFY(!w.loader()->loadedFromCache());
            QVERIFY(w.traceCache()->waitForWrites(60000));
        }
        QCOMPARE(entries(), size_t(1));
        {
            MainWindow w(testOptions());
            second = openAndGrab(w, &status2);
            QVERIFY(w.loader()->loadedFromCache());
            QCOMPARE(w.traceCache()->writesRunning(), 0); // nothing to write again
        }
        QVERIFY2(!status1.contains("trace cache"), qPrintable(status1));
        QVERIFY2(status2.contains("from the trace cache"), qPrintable(status2));
        QCOMPARE(first.size(), second.size());
        QVERIFY2(first == second, "the timeline differs when opened from the cache");
    }

    void settingsTurnItOffAndClear() {
        MainWindow w(testOptions());
        auto* on = w.findChild<QAction*>(QStringLiteral("actionCacheEnabled"));
        auto* clear = w.findChild<QAction*>(QStringLiteral("actionCacheClear"));
        QVERIFY(on && clear);
        QVERIFY(on->isChecked());
        on->trigger(); // off
        QVERIFY(!w.traceCache()->enabled());
        QString status;
        openAndGrab(w, &status);
        QVERIFY(!w.loader()->loadedFromCache());
        on->trigger(); // on again
        QVERIFY(w.traceCache()->enabled());
        QVERIFY(entries() > 0);
        clear->trigger();
        QCOMPARE(entries(), size_t(0));
    }

    // Issue 43: the window's sets go through the cache as a single file does: the ranks of a job
    // and a comparison opened a second time are read from the entries the first open left.
    void setsOpenFromTheCacheSecondTime() {
        REQUIRE_DLRM_FILES(files);
        QStringList ranks;
        for (const std::string& f : files) ranks << QString::fromStdString(f);
        const QString other = QStringLiteral(STRATA_SHARED_TRACES "/catapult__x_event_trace.json");
        const size_t before = entries();
        for (int time = 0; time < 2; ++time) {
            MainWindow w(testOptions());
            QString error;
            QVERIFY2(w.openSync(OpenRequest::ranks(ranks, false), &error), qPrintable(error));
            QCOMPARE(w.workspace()->ranks()->ranks().size(), size_t(8));
            QCOMPARE(w.loader()->loadedFromCache(), time == 1);
            QVERIFY(w.traceCache()->waitForWrites(60000));
            QCOMPARE(entries(), before + (time == 0 ? 8 : 9)); // the ranks' (and the other's)
            QVERIFY2(w.openSync(OpenRequest::comparison(other, ranks.front()), &error),
                     qPrintable(error));
            QCOMPARE(w.loader()->loadedFromCache(), time == 1);
            QVERIFY(w.traceCache()->waitForWrites(60000));
            QCOMPARE(entries(), before + 9);
        }
    }

    // Issue 42: a new run moved onto the path while the window loads the old one: the window
    // shows what it read, keeps nothing in the cache, and the next open shows the new run.
    void replacedWhileOpeningIsNotKept() {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        const QString path = work.filePath(QStringLiteral("run.json.gz"));
        const QString next = work.filePath(QStringLiteral("next.json"));
        QVERIFY(QFile::copy(trace_, path));
        QVERIFY(
            QFile::copy(QStringLiteral(STRATA_SHARED_TRACES
                                       "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json"),
                        next));
        const size_t before = entries();
        size_t oldSlices = 0, newSlices = 0;
        {
            MainWindow w(testOptions());
            LoadOptions options;
            bool moved = false;
            options.progress = [&](double) {
                if (!moved) // rename(2): the new file takes the name at once, as rsync and scp do
                    moved = std::rename(next.toUtf8().constData(), path.toUtf8().constData()) == 0;
                return true;
            };
            QString error;
            QVERIFY2(w.openSync(OpenRequest::trace(path, options), &error), qPrintable(error));
            QVERIFY(moved);
            oldSlices = w.trace()->sliceCount();
            QVERIFY(w.traceCache()->waitForWrites(60000));
            QCOMPARE(entries(), before); // nothing kept under either file's stamp
        }
        {
            MainWindow w(testOptions());
            QString error;
            QVERIFY2(w.openSync(OpenRequest::trace(path), &error), qPrintable(error));
            QVERIFY(!w.loader()->loadedFromCache());
            newSlices = w.trace()->sliceCount();
            QVERIFY(w.traceCache()->waitForWrites(60000));
        }
        QVERIFY(oldSlices != newSlices);
        MainWindow w(testOptions());
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(path), &error), qPrintable(error));
        QVERIFY(w.loader()->loadedFromCache());
        QCOMPARE(w.trace()->sliceCount(), newSlices); // the new run, never the old one
    }

    // The timeline's picture first (issue 49): opened as File > Open does, nothing is written to
    // the cache and no dock shows the trace before the timeline has its gap causes; then both
    // follow.
    void docksAndCacheAfterThePicture() {
        QVERIFY(TraceCache(TraceCacheSettings{true, cacheHome_.filePath("strata").toStdString()})
                    .clear()
                    .empty());
        MainWindow w(testOptions());
        w.resize(1400, 800);
        w.show();
        Analyses* analyses = w.workspace()->analyses();
        StatsPanel* stats = w.panel<StatsPanel>();
        int released = 0, writesAtRelease = -1;
        bool statsShownAtRelease = true, gapsAtRelease = false;
        connect(analyses, &Analyses::pictureReleased, this, [&] {
            ++released;
            writesAtRelease = w.traceCache()->writesRunning();
            statsShownAtRelease = stats->analysis() != nullptr;
            gapsAtRelease = w.timeline()->gapAnalysis() != nullptr;
        });
        w.open(OpenRequest::trace(trace_));
        QTRY_VERIFY_WITH_TIMEOUT(!w.loader()->isLoading() && w.trace(), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(released, 1, 60000);
        QCOMPARE(writesAtRelease, 0);
        QVERIFY(!statsShownAtRelease);
        QVERIFY(gapsAtRelease);
        stats->waitForJobs();
        QVERIFY(stats->analysis() != nullptr);
        QCOMPARE(stats->analysis()->tracePtr(), w.trace());
        QVERIFY(w.traceCache()->waitForWrites(60000));
        QCOMPARE(entries(), size_t(1));
    }

    // One GPU lane busy over the first half of the time read, one thread over all of it.
    void previewPaintsBusyTime() {
        auto p = std::make_shared<LoadPreview>();
        p->start = 0;
        p->binWidth = 1000;
        p->first = 0;
        p->last = 1000 * 100;
        p->slices = 2;
        PreviewLane gpu;
        gpu.gpu = true, gpu.device = 0, gpu.stream = 7;
        gpu.busy.assign(100, 0.f);
        for (int i = 0; i < 50; ++i) gpu.busy[size_t(i)] = 1.f;
        PreviewLane cpu;
        cpu.pid = 1, cpu.tid = 2;
        cpu.busy.assign(100, 1.f);
        p->lanes = {gpu, cpu};
        LoadPreviewView v;
        v.resize(1178, 200); // 170 px of names, then 1000 px of time (8 px margin): 50 % at x 670
        v.setPreview(p);
        const QImage img = v.grab().toImage();
        const int gpuRow = 22 + 4 + 8; // below the ruler, the middle of the first row
        const QColor background = img.pixelColor(1100, gpuRow);
        QVERIFY(img.pixelColor(300, gpuRow) != background); // busy: painted
        QCOMPARE(img.pixelColor(900, gpuRow), background);  // the idle half
        const int cpuRow = gpuRow + 16 + 3;
        QVERIFY(img.pixelColor(1100, cpuRow) != background); // the thread all along
    }
};

STRATA_TEST_MAIN(TestTraceCacheGui)
#include "tst_trace_cache_gui.moc"
