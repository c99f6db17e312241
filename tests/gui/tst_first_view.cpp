// What a user sees first (issue 28), on the real traces in ../shared/traces at 1600x900,
// offscreen: the tracks get most of the window and the docks with nothing to show stay closed
// (a dock the user opens is open again next session);
// the CPU ops and launch calls of the Qwen with_stack trace are on screen without expanding
// anything (the wrapper frames folded); Find scrolls a deep match into view; the ruler's labels
// never collide at widths 800-2000; instants are drawn and found; the [memory] events become
// GPU 0's memory row with the peak an independent script (tests/data/timeline/memory_peak.py)
// computes; a merged level-of-detail block says how many slices it stands for (counted here from
// the track's columns). Skipped where the traces are absent.
#include "panels/warnings_panel.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "window/find_bar.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

using namespace strata;

namespace {

const QString kTraces = QStringLiteral(STRATA_SHARED_TRACES);
const QString kQwen = kTraces + "/tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";

MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

// The window at 1600x900 with `path` open, shown, its analyses done.
std::unique_ptr<MainWindow> open(const QString& path, QSize size = {1600, 900}) {
    auto w = std::make_unique<MainWindow>(testOptions());
    w->resize(size);
    if (!w->openSync(OpenRequest::trace(path))) return nullptr;
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    w->resize(size);
    QTest::qWait(50);
    return w;
}

QStringList realTraces() {
    QStringList out;
    for (const QString& f : QDir(kTraces).entryList({"*.json", "*.gz"}, QDir::Files))
        out << kTraces + "/" + f;
    return out;
}

// The rows of the timeline (names and slices) as a share of the window.
double tracksShare(MainWindow& w) {
    TimelineView* v = w.timeline();
    const QSize area = v->tracksArea()->size();
    return double(v->width()) * area.height() / (double(w.width()) * w.height());
}

// The main thread's base lane of the Qwen trace (pid = tid = 25286).
TrackId qwenThread(const Trace& t) {
    for (TrackId i = 0; i < t.tracks().size(); ++i) {
        const Track& tr = t.track(i);
        if (tr.kind == TrackKind::Thread && tr.pid == 25286 && tr.tid == 25286 && tr.lane == 0)
            return i;
    }
    return UINT32_MAX;
}

QJsonObject memoryScript(const QString& trace) {
    QProcess p;
    p.start(QStringLiteral("python3"),
            {QStringLiteral(STRATA_TEST_DATA "/timeline/memory_peak.py"), trace});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

} // namespace

class TestFirstView : public QObject {
    Q_OBJECT
private slots:
    void init() {
        if (!QFile::exists(kQwen)) QSKIP("../shared/traces is absent");
    }

    void tracksGetMostOfTheWindow() {
        for (const QString& path : realTraces()) {
            auto w = open(path);
            QVERIFY2(w, qPrintable(path));
            const double share = tracksShare(*w);
            qInfo("%s: tracks %.1f %% of the window", qPrintable(QFileInfo(path).fileName()),
                  100 * share);
            QVERIFY2(share >= 0.60, qPrintable(QString("%1: %2").arg(path).arg(share)));
            // Nothing selected: no Details, no Range.
            QVERIFY(w->findChild<QDockWidget*>("detailsDock")->isHidden());
            QVERIFY(w->findChild<QDockWidget*>("rangeDock")->isHidden());
        }
    }

    void warningsAreACountThatOpensOnlyForWhatChangesTheFigures() {
        // Qwen: the capture began inside ProfilerStep#6 (509 GPU ops without their launch): the
        // list opens, that warning first.
        auto w = open(kQwen);
        QVERIFY(w);
        QVERIFY(!w->findChild<QDockWidget*>("warningsDock")->isHidden());
        QVERIFY(
            w->panel<WarningsPanel>()->warnings().front().contains("capture began inside a step"));
        QCOMPARE(w->panel<WarningsPanel>()->beliefCount(), 1);
        // The DLRM rank has only load warnings (flow events skipped): a count, the list closed
        // until the count is clicked.
        auto d = open(kTraces + "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json");
        QVERIFY(d);
        QCOMPARE(d->panel<WarningsPanel>()->beliefCount(), 0);
        QDockWidget* list = d->findChild<QDockWidget*>("warningsDock");
        QVERIFY(list->isHidden());
        const int n = d->panel<WarningsPanel>()->count();
        QCOMPARE(d->status()->warningsButton()->text(),
                 n == 1 ? QStringLiteral("1 warning") : QStringLiteral("%1 warnings").arg(n));
        QTest::mouseClick(d->status()->warningsButton(), Qt::LeftButton);
        QVERIFY(!list->isHidden());
    }

    void layoutIsRemembered() {
        // A dock the user opens (View > Call Tree) is open again in the next session.
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("window"));
        MainWindow::Options o;
        o.restoreSettings = true;
        {
            MainWindow w(o);
            w.resize(1600, 900);
            QVERIFY(w.openSync(OpenRequest::trace(kQwen)));
            QDockWidget* calls = w.findChild<QDockWidget*>("callTreeDock");
            QVERIFY(calls->isHidden());
            calls->toggleViewAction()->trigger();
            QVERIFY(!calls->isHidden());
            w.close(); // saves the layout
        }
        MainWindow w(o);
        w.resize(1600, 900);
        QVERIFY(w.openSync(OpenRequest::trace(kQwen)));
        QVERIFY(!w.findChild<QDockWidget*>("callTreeDock")->isHidden());
        QVERIFY(w.findChild<QDockWidget*>("detailsDock")->isHidden()); // nothing selected
        QSettings().remove(QStringLiteral("window"));
    }

    void detailsOpenOnASelectionAndCloseWithIt() {
        auto w = open(kQwen);
        QVERIFY(w);
        QDockWidget* details = w->findChild<QDockWidget*>("detailsDock");
        const Trace& t = *w->trace();
        w->timeline()->selectSlice({qwenThread(t), 0});
        QVERIFY(!details->isHidden());
        w->timeline()->selectSlice({});
        QVERIFY(details->isHidden());
    }

    void cpuOpsInSightOnOpen() {
        auto w = open(kQwen);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const Trace& t = *w->trace();
        const TrackId id = qwenThread(t);
        QVERIFY(id != UINT32_MAX);
        const SliceColumns& c = t.track(id).slices;
        const QRect area = v->tracksArea()->rect();
        // At every depth that holds a CPU op or a launch call, one of them is drawn in the
        // tracks area.
        std::map<uint16_t, SliceRef> byDepth;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (c.kind[i] == SliceKind::CpuOp || isLaunchApiKind(c.kind[i]))
                byDepth.try_emplace(c.depth[i], SliceRef{id, i});
        QVERIFY(byDepth.size() > 5);
        for (const auto& [depth, ref] : byDepth) {
            const QRect r = v->sliceRect(ref);
            QVERIFY2(!r.isNull() && r.top() >= area.top() && r.bottom() <= area.bottom(),
                     qPrintable(QString("depth %1 at y %2, area height %3")
                                    .arg(depth)
                                    .arg(r.top())
                                    .arg(area.height())));
        }
        // The wrapper frames above ProfilerStep#6 are folded into one level that ends with it.
        const TrackRow& row = v->layout().rows()[size_t(v->layout().rowOfTrack(id))];
        QVERIFY(!row.folds.empty() && !row.folds[0].empty());
        const DepthFold f = row.folds[0][0];
        QCOMPARE(f.first, uint16_t(0));
        QVERIFY(f.count >= 6);
        SliceIndex step = 0;
        while (t.str(c.name[step]) != "ProfilerStep#6") ++step;
        QCOMPARE(int(c.depth[step]), f.first + f.count - 1);
    }

    void findScrollsADeepMatchIntoView() {
        auto w = open(kQwen);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const Trace& t = *w->trace();
        const TrackId id = qwenThread(t);
        const SliceColumns& c = t.track(id).slices;
        // The deepest launch call, and a view where it is neither in time nor on screen: the
        // first 2 % of the trace, every level unfolded, scrolled to the top.
        SliceIndex deep = 0;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (isLaunchApiKind(c.kind[i]) && c.depth[i] > c.depth[deep]) deep = i;
        QVERIFY(c.depth[deep] >= 20);
        const TimeRange b = v->visibleRange();
        v->setAllThreadsExpanded(true);
        v->setVisibleRange({b.start, b.start + b.duration() / 50});
        v->setVerticalScroll(0);
        const QRect area = v->tracksArea()->rect();
        const QRect before = v->sliceRect({id, deep});
        const bool seen = !before.isNull() && area.contains(before);
        QVERIFY2(!seen, "the match must start out of view for this test to mean anything");
        w->findBar()->show();
        w->findBar()->edit()->setText(QString::fromStdString(std::string(t.str(c.name[deep]))));
        w->findBar()->search();
        const auto& m = w->findBar()->matches();
        const auto at = std::find(m.begin(), m.end(), SliceRef{id, deep});
        QVERIFY(at != m.end());
        w->findBar()->setCurrentIndex(int(at - m.begin()));
        QTest::qWait(20);
        const QRect after = v->sliceRect({id, deep});
        QVERIFY2(!after.isNull() && after.top() >= 0 && after.bottom() <= area.bottom() &&
                     after.right() >= 0 && after.left() <= area.right(),
                 qPrintable(QString("at %1,%2 in an area of %3x%4")
                                .arg(after.x())
                                .arg(after.y())
                                .arg(area.width())
                                .arg(area.height())));
    }

    void rulerLabelsNeverCollide() {
        for (const QString& path : realTraces()) {
            auto w = open(path);
            QVERIFY(w);
            TimelineView* v = w->timeline();
            const TimeRange all = v->visibleRange();
            for (int width = 800; width <= 2000; width += 50) {
                w->resize(width, 900);
                QTest::qWait(5);
                // The whole trace, its last 1 %, and a few zooms near its end (where the last
                // two labels used to run together).
                for (const TimeNs div : {1, 100, 3000, 100000}) {
                    const TimeNs d = std::max<TimeNs>(all.duration() / div, 200);
                    v->setVisibleRange({all.end - d, all.end});
                    const RulerTicks ticks = v->rulerTicks();
                    const int rulerWidth = v->tracksArea()->width();
                    QVERIFY(!ticks.labels.empty());
                    for (size_t i = 0; i < ticks.labels.size(); ++i) {
                        const QRect r = ticks.labels[i].rect;
                        QVERIFY2(r.left() >= 0 && r.right() < rulerWidth,
                                 qPrintable(ticks.labels[i].text));
                        if (i > 0)
                            QVERIFY2(
                                r.left() > ticks.labels[i - 1].rect.right(),
                                qPrintable(QString("%1: '%2' and '%3' at width %4")
                                               .arg(QFileInfo(path).fileName(),
                                                    ticks.labels[i - 1].text, ticks.labels[i].text)
                                               .arg(width)));
                    }
                }
            }
        }
    }

    void memoryRowPeakMatchesTheEvents() {
        const QJsonObject want = memoryScript(kQwen);
        if (want.isEmpty()) QSKIP("python3 could not run tests/data/timeline/memory_peak.py");
        auto w = open(kQwen);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const MemoryUsage* m = v->memoryUsage();
        QVERIFY(m);
        const MemorySeries* gpu0 = m->of(0);
        QVERIFY(gpu0);
        const QJsonObject dev0 = want.value("0").toObject();
        QCOMPARE(qint64(gpu0->samples.size()), dev0.value("events").toInteger());
        QCOMPARE(qint64(gpu0->samples[gpu0->peak].allocated),
                 dev0.value("peak_allocated").toInteger());
        QCOMPARE(qint64(gpu0->samples[gpu0->reservedPeak].reserved),
                 dev0.value("peak_reserved").toInteger());
        // Drawn as a row in GPU 0's section.
        bool row = false;
        for (const TrackRow& r : v->layout().rows())
            if (r.kind == TrackRow::Kind::Memory && r.device == 0 && r.height > 0)
                row = v->layout().groups()[size_t(r.group)].gpu;
        QVERIFY(row);
    }

    void instantsAreDrawnAndFound() {
        const QJsonObject want = memoryScript(kQwen);
        if (want.isEmpty()) QSKIP("python3 could not run tests/data/timeline/memory_peak.py");
        auto w = open(kQwen);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const TrackRow& row =
            v->layout().rows()[size_t(v->layout().rowOfTrack(qwenThread(*w->trace())))];
        QVERIFY(row.instants);
        w->findBar()->show();
        w->findBar()->edit()->setText(QStringLiteral("[memory]"));
        w->findBar()->search();
        const qint64 events = want.value("0").toObject().value("events").toInteger() +
                              want.value("-1").toObject().value("events").toInteger();
        QCOMPARE(qint64(w->findBar()->instantMatches().size()), events);
        QCOMPARE(w->findBar()->statusText(), QStringLiteral("1 of %1").arg(events));
        const QRect r = v->instantRect(w->findBar()->instantMatches().front());
        QVERIFY(!r.isNull());
        QVERIFY(v->tracksArea()->rect().contains(r.center()));
        QCOMPARE(v->instantAtPixel(r.center()), w->findBar()->instantMatches().front());
    }

    void mergedBlockSaysHowMany() {
        auto w = open(kQwen);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const Trace& t = *w->trace();
        // Across the tracks area, row by row: the first merged block found.
        const QRect area = v->tracksArea()->rect();
        for (int y = 0; y < area.height(); y += TrackLayout::kDepthHeight / 2) {
            for (int x = 0; x < area.width(); ++x) {
                const TimelinePainter::Hit h = v->hitAtPixel({x, y});
                if (!h.merged) continue;
                // The slices of that depth overlapping the block, counted from the columns.
                const SliceColumns& c = t.track(h.slice.track).slices;
                const uint16_t depth = c.depth[h.slice.index];
                uint32_t n = 0;
                for (SliceIndex i = 0; i < c.size(); ++i)
                    n += c.depth[i] == depth && c.start[i] < h.end && c.end(i) > h.start;
                QVERIFY(n >= 2);
                QCOMPARE(h.count, n);
                return;
            }
        }
        QFAIL("no merged block at whole-trace zoom");
    }
};

STRATA_TEST_MAIN(TestFirstView)
#include "tst_first_view.moc"
