// The trace cache and the first picture in the window (issue 33): a trace opened once is kept in
// the cache in the background and opens from it the next time, the same on screen pixel for
// pixel, the status bar saying where it came from; Settings > Trace Cache turns it off and
// clears it; a large trace's first frames, what was read so far, are drawn by the timeline.
#include "analysis_views/stats_panel.h"
#include "io/load_preview_trace.h"
#include "open/trace_cache_controller.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "workspace/analyses.h"

#include "workspace/rank_set.h"

#include <QDir>
#include <QMenuBar>
#include <QStatusBar>

#include <cstdio>
#include <filesystem>
#include <set>
#include <thread>

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
    TraceCache cache() const {
        return TraceCache(TraceCacheSettings{true, cacheHome_.filePath("strata").toStdString()});
    }
    size_t entries() const { return cache().entryCount(); }

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
        QVERIFY(cache().clear().empty());
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

    // A large trace's first frames are the timeline's (issue 49): opened as File > Open does,
    // slowed (each progress step sleeps), the timeline page shows what was read so far (each GPU
    // stream and thread of the trace, Workspace::previewing) while the window has opened nothing:
    // no trace, no dock analysis, no export, the title and status saying it loads. The loaded
    // trace then replaces it in the same place; a cancelled load lets it go.
    void firstFramesAreTheTimeline() {
        QVERIFY(cache().clear().empty());
        MainWindow w(testOptions());
        w.resize(1400, 800);
        w.show();
        OpenRequest slowed = OpenRequest::trace(trace_);
        slowed.options.progress = [](double) {
            std::this_thread::sleep_for(std::chrono::milliseconds(40));
            return true;
        };
        w.open(slowed);
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->previewing(), 30000);
        QVERIFY(w.loader()->isLoading());
        QVERIFY(w.pages()->showing(WindowPages::Page::Timeline));
        QVERIFY(!w.trace()); // nothing opened yet
        const std::shared_ptr<const Trace> preview = w.timeline()->trace();
        QVERIFY(preview && !previewOf(*preview).empty());
        QVERIFY(w.windowTitle().contains(QStringLiteral("(loading")));
        QVERIFY(w.statusText().contains(QStringLiteral("% of the file read")));
        QVERIFY(w.panel<StatsPanel>()->analysis() == nullptr);
        QAction* exportWhole = w.findChild<QAction*>(QStringLiteral("actionExportPerfetto"));
        QVERIFY(exportWhole && !exportWhole->isEnabled());
        QVERIFY(w.timeline()->visibleTrackLabelCount() > 0);
        QVERIFY(w.timeline()->layout().contentHeight() > 0);
        w.loader()->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!w.loader()->isLoading(), 30000);
        QVERIFY(!w.workspace()->previewing());
        QVERIFY(!w.workspace()->current());
        QVERIFY(w.pages()->showing(WindowPages::Page::Welcome));

        w.open(slowed);
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->previewing(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.loader()->isLoading() && w.trace(), 120000);
        QVERIFY(!w.workspace()->previewing());
        QCOMPARE(w.timeline()->trace(), w.trace());
        QVERIFY(w.pages()->showing(WindowPages::Page::Timeline));
        QVERIFY(!w.windowTitle().contains(QStringLiteral("(loading")));
        QVERIFY(exportWhole->isEnabled());
        // Each lane of what was read is one of the trace's GPU streams or threads.
        std::set<std::pair<int64_t, int64_t>> lanes;
        for (const Track& t : w.trace()->tracks()) {
            if (t.kind == TrackKind::GpuStream) lanes.insert({-1 - t.device, t.tid});
            if (t.kind == TrackKind::Thread) lanes.insert({t.pid, t.tid});
        }
        for (const Track& t : preview->tracks()) {
            if (t.kind == TrackKind::GpuStream) QVERIFY(lanes.count({-1 - t.device, t.tid}));
            if (t.kind == TrackKind::Thread) QVERIFY(lanes.count({t.pid, t.tid}));
        }
        QVERIFY(w.traceCache()->waitForWrites(60000));
    }
};

STRATA_TEST_MAIN(TestTraceCacheGui)
#include "tst_trace_cache_gui.moc"
