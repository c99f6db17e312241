// The Statistics dock's Critical Path tab and the timeline's highlight (issue 46), on the real
// HTA trace in ../shared/traces (skipped where it is absent). The facts checked by hand: the
// trace's first ProfilerStep (read from the JSON: ProfilerStep#101, dur 35115.869 µs) is the
// default window and HTA's window for ("ProfilerStep", instance 0); the table lists the path the
// core function gives for that window, edge by edge (first and last names, delays); the time per
// bound sums to the classed total and its shares to 100 %; a row click selects the row's event;
// a double-click shows the edge; the path's events are drawn as they are and the rest dimmed
// until the toggle (or the timeline's "Hide Critical Path") turns it off.
#include "analysis/critical_path/critical_path.h"
#include "analysis_views/critical_path_view.h"
#include "analysis_views/stats_panel.h"
#include "style/qt_text.h"
#include "support/main_window_fixture.h"
#include "support/test_main.h"
#include "timeline/timeline_view.h"
#include "window/dock_policy.h"

#include <QCheckBox>
#include <QComboBox>

using namespace strata;

namespace {

const QString kHta =
    QStringLiteral(STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");

// The rows' text of column `c` (the view's order: by path, as shown first).
QString cell(QAbstractItemModel* m, int row, int c) {
    return m->data(m->index(row, c)).toString();
}

QString shortName(const Trace& t, SliceRef r) {
    return toQString(t.displayName(t.track(r.track).slices.name[r.index]));
}

// The first slice (by start) whose name starts with "ProfilerStep#", found by a plain scan.
SliceRef firstProfilerStep(const Trace& t) {
    SliceRef best;
    for (TrackId k = 0; k < t.tracks().size(); ++k)
        for (SliceIndex i = 0; i < t.track(k).slices.size(); ++i)
            if (t.name({k, i}).starts_with("ProfilerStep#") &&
                (!best.valid() || t.start({k, i}) < t.start(best)))
                best = {k, i};
    return best;
}

} // namespace

class TestCriticalPathView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        if (!QFile::exists(kHta)) QSKIP("../shared/traces is absent");
        w_ = std::make_unique<MainWindow>(testOptions());
        w_->resize(1600, 1000);
        QVERIFY(w_->openSync(OpenRequest::trace(kHta)));
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        stats_ = w_->panel<StatsPanel>();
        view_ = stats_->criticalPathView();
        w_->docks()->showDock(stats_);
        stats_->showTab(StatsPanel::CriticalPathTab);
        view_->waitForJobs();
        QVERIFY(view_->path());
    }
    void cleanupTestCase() { w_.reset(); }

    void defaultWindowIsTheFirstStep() {
        const Trace& t = *w_->trace();
        QVERIFY(!view_->steps().empty());
        QCOMPARE(view_->window(), 0);
        QCOMPARE(view_->steps().front().name, std::string("ProfilerStep#101"));
        const SliceRef step = firstProfilerStep(t);
        QCOMPARE(QString::fromUtf8(t.name(step).data(), qsizetype(t.name(step).size())),
                 QStringLiteral("ProfilerStep#101"));
        QCOMPARE(t.duration(step), TimeNs(35115869)); // dur 35115.869 µs in the file
        QCOMPARE(view_->steps().front().start, t.start(step));
        QCOMPARE(view_->steps().front().end, t.start(step) + t.duration(step));
        // HTA's window for ("ProfilerStep", instance 0) is that step.
        TimeRange hta{};
        std::string error;
        QVERIFY2(criticalPathWindow(t, "ProfilerStep", 0, 0, {}, &hta, &error), error.c_str());
        QCOMPARE(hta.start, t.start(step));
        QCOMPARE(hta.end, t.start(step) + t.duration(step));
    }

    void tableListsThePathOfTheCoreFunction() {
        const Trace& t = *w_->trace();
        const SliceRef step = firstProfilerStep(t);
        CriticalPathOptions o;
        o.window = {t.start(step), t.start(step) + t.duration(step)};
        const CriticalPath direct = criticalPath(t, o);
        QVERIFY2(direct.ok, direct.error.c_str());
        QVERIFY(!direct.edges.empty());
        QAbstractItemModel* m = view_->edgesModel();
        QCOMPARE(m->rowCount(), int(direct.edges.size()));
        const CpPoint& first = direct.points[direct.edges.front().from];
        const CpPoint& last = direct.points[direct.edges.back().to];
        QVERIFY2(cell(m, 0, 2).startsWith(shortName(t, first.event)), qPrintable(cell(m, 0, 2)));
        QVERIFY(cell(m, 0, 2).endsWith(first.isStart ? "(start)" : "(end)"));
        const int n = m->rowCount() - 1;
        QVERIFY2(cell(m, n, 3).startsWith(shortName(t, last.event)), qPrintable(cell(m, n, 3)));
        QVERIFY(cell(m, n, 3).endsWith(last.isStart ? "(start)" : "(end)"));
        // Row by row: the delay (ns in UserRole), the edge type and bound names.
        for (int r = 0; r <= n; ++r) {
            const CpPathEdge& e = direct.edges[size_t(r)];
            QCOMPARE(m->data(m->index(r, 5), Qt::UserRole).toDouble(), double(e.weight));
            QCOMPARE(cell(m, r, 4), QString(cpEdgeTypeName(e.type)));
            QCOMPARE(cell(m, r, 6), QString(cpBoundName(e.bound)));
        }
        QCOMPARE(view_->path()->length, direct.length);
    }

    void boundsSumToThePath() {
        const CriticalPath& p = *view_->path();
        QAbstractItemModel* b = view_->boundsModel();
        QVERIFY(b->rowCount() > 0);
        double time = 0, share = 0;
        for (int r = 0; r < b->rowCount(); ++r) {
            time += b->data(b->index(r, 1), Qt::UserRole).toDouble();
            share += b->data(b->index(r, 2), Qt::UserRole).toDouble();
        }
        TimeNs classed = 0; // the classed edges' weights, summed here
        for (const CpPathEdge& e : p.edges)
            if (e.bound != CpBound::None) classed += e.weight;
        QCOMPARE(time, double(classed));
        QVERIFY2(std::abs(share - 1.0) < 1e-9, qPrintable(QString::number(share)));
        // The summary says HTA's shares, the largest (the table's first row) among them.
        QVERIFY(view_->summaryText().contains(b->index(0, 0).data().toString()));
    }

    void rowClickSelectsItsEvent() {
        const CriticalPath& p = *view_->path();
        // A row whose event is a GPU op, and the first row.
        int gpuRow = -1;
        for (size_t r = 0; r < p.edges.size() && gpuRow < 0; ++r)
            if (p.edges[r].type == CpEdgeType::LaunchDelay) gpuRow = int(r);
        for (int row : {0, gpuRow}) {
            if (row < 0) continue;
            const CpPathEdge& e = p.edges[size_t(row)];
            const SliceRef want = e.attributed.valid() ? e.attributed : p.points[e.to].event;
            view_->edgesTable()->selectRow(row);
            QCOMPARE(w_->navigation()->selectedSlice().slice, want);
        }
        // A double-click: the timeline shows the edge whole.
        const int row = gpuRow >= 0 ? gpuRow : 0;
        view_->activateRow(row, true);
        const CpPathEdge& e = p.edges[size_t(row)];
        const TimeRange v = w_->timeline()->visibleRange();
        QVERIFY(v.start <= p.points[e.from].time && p.points[e.to].time <= v.end);
    }

    void timelineSelectionSelectsItsRow() {
        const CriticalPath& p = *view_->path();
        auto eventOf = [&](size_t k) {
            const CpPathEdge& e = p.edges[k];
            return e.attributed.valid() ? e.attributed : p.points[e.to].event;
        };
        // The middle edge's event: the first row with that event is selected.
        const SliceRef event = eventOf(p.edges.size() / 2);
        size_t first = 0;
        while (eventOf(first) != event) ++first;
        w_->navigation()->setSelectedSlice(w_->workspace()->ref(event));
        QCOMPARE(view_->edgesTable()->currentIndex().row(), int(first));
        QCOMPARE(w_->navigation()->selectedSlice().slice, event); // and it stays selected
        // A slice off the path leaves the row as it is.
        const Trace& t = *w_->trace();
        for (TrackId k = 0; k < t.tracks().size(); ++k)
            if (t.track(k).slices.size() > 0 && !w_->timeline()->onCriticalPath({k, 0})) {
                w_->navigation()->setSelectedSlice(w_->workspace()->ref({k, 0}));
                break;
            }
        QCOMPARE(view_->edgesTable()->currentIndex().row(), int(first));
    }

    void highlightDimsTheRest() {
        TimelineView* tl = w_->timeline();
        const CriticalPath& p = *view_->path();
        QVERIFY(view_->highlightShown());
        QVERIFY(tl->criticalPathShown());
        for (SliceRef r : p.pathEvents) QVERIFY(tl->onCriticalPath(r));
        // In view: the path's longest event, half the view; another slice drawn there too.
        const Trace& t = *w_->trace();
        SliceRef on = p.pathEvents.front();
        for (SliceRef r : p.pathEvents)
            if (t.duration(r) > t.duration(on)) on = r;
        const TimeNs d = std::max<TimeNs>(t.duration(on), 1000);
        tl->setVisibleRange({t.start(on) - d / 2, t.start(on) + d + d / 2});
        QTest::qWait(50);
        const QRect area = tl->tracksArea()->rect();
        // Where a slice is drawn inside the view (its left end, or the view's).
        auto inView = [&](SliceRef r) { return tl->sliceRect(r).intersected(area); };
        QVERIFY(inView(on).width() >= 4);
        SliceRef off;
        for (TrackId k = 0; k < t.tracks().size() && !off.valid(); ++k)
            for (SliceIndex i = 0; i < t.track(k).slices.size() && !off.valid(); ++i)
                if (!tl->onCriticalPath({k, i}) && inView({k, i}).width() >= 4 &&
                    inView({k, i}).height() >= 4)
                    off = {k, i};
        QVERIFY(off.valid());
        auto pixel = [&](SliceRef r) {
            const QRect rc = inView(r);
            return tl->tracksArea()->grab().toImage().pixel(rc.x() + rc.width() / 2, rc.y() + 1);
        };
        w_->navigation()->setSelectedSlice({}); // no outline in the way
        const QRgb onLit = pixel(on), offDim = pixel(off);
        view_->highlightBox()->setChecked(false);
        QVERIFY(!tl->criticalPathShown());
        QCOMPARE(pixel(on), onLit);    // a path event looks the same
        QVERIFY(pixel(off) != offDim); // the rest is no longer dimmed
        view_->highlightBox()->setChecked(true);
        QVERIFY(tl->criticalPathShown());
        QCOMPARE(pixel(off), offDim);
    }

    void timelineMenuHidesThePath() {
        TimelineView* tl = w_->timeline();
        QVERIFY(tl->criticalPathShown());
        std::unique_ptr<QMenu> menu(tl->contextMenuAt(QPoint(5, 5)));
        QAction* hide = nullptr;
        for (QAction* a : menu->actions())
            if (a->text() == "Hide Critical Path") hide = a;
        QVERIFY(hide);
        hide->trigger();
        QVERIFY(!tl->criticalPathShown());
        QVERIFY(!view_->highlightShown());
        view_->setHighlightShown(true);
        QVERIFY(tl->criticalPathShown());
    }

    void otherWindows() {
        // The selected range, none selected: nothing, and said so.
        w_->navigation()->setSelectedRange(std::nullopt);
        view_->setWindow(CriticalPathView::kSelectedRange);
        view_->waitForJobs();
        QVERIFY(!view_->path());
        QCOMPARE(view_->edgesModel()->rowCount(), 0);
        QVERIFY(!w_->timeline()->criticalPathShown());
        QVERIFY(view_->summaryText().contains("Select a range"));
        // The second step selected as the range: its path, the same as the step's.
        const TraceStep second = view_->steps().at(1);
        w_->navigation()->setSelectedRange(TimeRange{second.start, second.end});
        view_->waitForJobs();
        QVERIFY(view_->path() && view_->path()->ok);
        const size_t edges = view_->path()->edges.size();
        view_->setWindow(1);
        view_->waitForJobs();
        QCOMPARE(view_->path()->edges.size(), edges);
        QCOMPARE(view_->edgesModel()->rowCount(), int(edges));
        QVERIFY(w_->timeline()->criticalPathShown());
        // The whole trace: its bounds the window, every edge at or after its start.
        view_->setWindow(CriticalPathView::kWholeTrace);
        view_->waitForJobs();
        QVERIFY(view_->path() && view_->path()->ok);
        QCOMPARE(view_->path()->window.start, w_->trace()->bounds().start);
        QCOMPARE(view_->path()->window.end, w_->trace()->bounds().end);
        QAbstractItemModel* m = view_->edgesModel();
        QCOMPARE(m->rowCount(), int(view_->path()->edges.size()));
        for (int r = 0; r < m->rowCount(); ++r)
            QVERIFY(m->data(m->index(r, 1), Qt::UserRole).toDouble() >= 0);
    }

private:
    std::unique_ptr<MainWindow> w_;
    StatsPanel* stats_ = nullptr;
    CriticalPathView* view_ = nullptr;
};

STRATA_TEST_MAIN(TestCriticalPathView)
#include "tst_critical_path_view.moc"
