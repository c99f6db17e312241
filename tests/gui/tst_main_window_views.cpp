// The main window's views driven through their real widgets (offscreen): find (bar and zoom),
// the ruler, right-click menus, the selection outline, the range table, shortcut help, the gap
// threshold, every item model under Qt's model tester. Expected values are read off
// resources/sample_trace.json by hand / with python3.
#include "analysis_views/call_tree_model.h"
#include "analysis_views/gaps_table_model.h"
#include "support/main_window_fixture.h"
#include "support/test_main.h"

#include <QSortFilterProxyModel>

class TestMainWindowViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void findZoomsToASubPixelMatch();
    void rulerLastLabelNotClipped();
    void rightClickMenus();
    void selectionOutlineLeavesTheLabelWhole();
    void findBar();
    void findBarByArgument();
    void rangeTable();
    void dragOnRulerFillsRangeTable();
    void shortcutHelp();
    void gapThresholdAndFlows();
    void everyModelPassesTheModelTester();
};

void TestMainWindowViews::initTestCase() {
    initMainWindowTests();
}

void TestMainWindowViews::findZoomsToASubPixelMatch() {
    // A 3 µs kernel in a 1.2 s trace is a fraction of a pixel at whole-trace zoom: finding it
    // zooms to it as F does (10 % margin each side: 3.6 µs in view).
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tiny.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "first", "pid": 1, "tid": 1, "ts": 1000, "dur": 1},
{"ph": "X", "cat": "cpu_op", "name": "last", "pid": 1, "tid": 1, "ts": 1201000, "dur": 1},
{"ph": "X", "cat": "kernel", "name": "tiny_kernel", "pid": 0, "tid": 7, "ts": 600000, "dur": 3,
 "args": {"device": 0, "stream": 7}}]})");
    f.close();
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(path)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.timeline()->zoomToAll();
    w.findBar()->show();
    w.findBar()->edit()->setText(QStringLiteral("tiny_kernel"));
    w.findBar()->search();
    QCOMPARE(w.findBar()->statusText(), QStringLiteral("1 of 1"));
    const TimeRange v = w.timeline()->visibleRange();
    QCOMPARE(v.duration(), TimeNs(3600));
    QCOMPARE(v.start - w.trace()->bounds().start, TimeNs(599'000'000 - 300));
}

void TestMainWindowViews::rulerLastLabelNotClipped() {
    // At many widths, no label text touches the ruler's right edge (the last label used to run
    // off it): the rightmost columns above the tick marks hold no text pixel.
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* ruler = w.timeline()->findChild<TimelineRuler*>();
    QVERIFY(ruler);
    for (int width = 1000; width <= 1500; width += 23) {
        w.resize(width, 700);
        QTest::qWait(10);
        const QImage img = ruler->grab().toImage().convertToFormat(QImage::Format_RGB32);
        for (int x = img.width() - 2; x < img.width(); ++x)
            for (int y = 0; y < img.height() - 11; ++y)
                QVERIFY2(qGray(img.pixel(x, y)) > 160,
                         qPrintable(QStringLiteral("width %1: text at the right edge (%2, %3)")
                                        .arg(width)
                                        .arg(x)
                                        .arg(y)));
    }
}

void TestMainWindowViews::rightClickMenus() {
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TimelineView* v = w.timeline();
    auto trigger = [](QMenu* m, const QString& prefix) {
        for (QAction* a : m->actions())
            if (a->text().startsWith(prefix)) {
                a->trigger();
                return true;
            }
        return false;
    };
    // On a slice: copy its name, select its range, find all with its name, zoom to it.
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    v->selectSlice(k);
    QTest::qWait(20);
    const QPoint at = v->sliceRect(k).center();
    std::unique_ptr<QMenu> m(v->contextMenuAt(at));
    QVERIFY(trigger(m.get(), QStringLiteral("Copy Name")));
    QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromLatin1(kGemm));
    QVERIFY(trigger(m.get(), QStringLiteral("Select Its Time Range")));
    QCOMPARE(w.navigation()->selectedRange(),
             std::optional<TimeRange>(
                 TimeRange{w.trace()->start(k), w.trace()->start(k) + w.trace()->duration(k)}));
    QVERIFY(trigger(m.get(), QStringLiteral("Find All With This Name")));
    QVERIFY(w.findBar()->isVisible());
    QVERIFY(w.findBar()->matches().size() >= 1);
    QVERIFY(trigger(m.get(), QStringLiteral("Zoom to Slice")));
    const TimeNs d = w.trace()->duration(k);
    QCOMPARE(v->visibleRange().duration(), d + 2 * (d / 10));
    // On a track: pin the CPU thread that launched it to the top, hide it, show it again.
    const SliceRef launch = w.trace()->launchOf(k);
    v->setVerticalScroll(0);
    m.reset(v->contextMenuAt(v->sliceRect(launch).center()));
    QVERIFY(trigger(m.get(), QStringLiteral("Pin Track to Top")));
    v->setVerticalScroll(0);
    QCOMPARE(v->trackRect(launch.track).top(), 0);
    m.reset(v->contextMenuAt(v->sliceRect(launch).center()));
    QVERIFY(trigger(m.get(), QStringLiteral("Hide Track")));
    QVERIFY(v->trackRect(launch.track).isNull());
    m.reset(v->contextMenuAt(QPoint(10, 5)));
    QVERIFY(trigger(m.get(), QStringLiteral("Show 1 Hidden Track")));
    QCOMPARE(v->trackRect(launch.track).top(), 0);
    m.reset(v->contextMenuAt(v->sliceRect(launch).center()));
    QVERIFY(trigger(m.get(), QStringLiteral("Unpin Track")));
    QVERIFY(v->trackRect(launch.track).top() > 0);
    m.reset(v->contextMenuAt(at));
    QVERIFY(trigger(m.get(), QStringLiteral("Collapse")));
}

void TestMainWindowViews::selectionOutlineLeavesTheLabelWhole() {
    // The outline of the selected slice lies outside it: no pixel inside the slice (where its
    // label's underscores sit) has the outline's colour, the pixel just left of it has.
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    w.timeline()->selectSlice(k);
    w.timeline()->zoomToSelection();
    QTest::qWait(30);
    const QRect r = w.timeline()->sliceRect(k);
    const QImage img =
        w.timeline()->tracksArea()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    constexpr QRgb kOutline = 0xff101418;
    const QRect inside = r.intersected(img.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            QVERIFY2(img.pixel(x, y) != kOutline,
                     qPrintable(QStringLiteral("(%1, %2)").arg(x).arg(y)));
    QCOMPARE(img.pixel(std::max(0, r.left() - 1), r.center().y()), kOutline);
    // The Details title holds the whole name in its tooltip and copies it.
    w.panel<DetailsPanel>()->showSlice(k);
    auto* title = w.panel<DetailsPanel>()->findChild<QLabel*>(QStringLiteral("detailsTitle"));
    QVERIFY(title);
    QCOMPARE(title->toolTip(), QString::fromLatin1(kGemm));
    auto* copy = w.panel<DetailsPanel>()->findChild<QAction*>(QStringLiteral("copySliceName"));
    QVERIFY(copy);
    copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromLatin1(kGemm));
}

void TestMainWindowViews::findBar() {
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    FindBar* f = w.findBar();
    QVERIFY(!f->isVisible());
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(f->isVisible());
    QVERIFY(f->edit()->hasFocus());
    QTest::keyClicks(f->edit(), QStringLiteral("aten::mm"));
    QTest::keyClick(f->edit(), Qt::Key_Return);
    // 24 aten::mm cpu_ops: 4 steps x (2 forward + 4 backward).
    QCOMPARE(f->statusText(), QStringLiteral("1 of 24"));
    QCOMPARE(w.timeline()->selectedSlice(), f->matches().front());
    QTest::keyClick(&w, Qt::Key_F3);
    QCOMPARE(f->statusText(), QStringLiteral("2 of 24"));
    // second aten::mm: ts 1730000000244.940 - ...100.0
    QCOMPARE(w.trace()->start(w.timeline()->selectedSlice()) - w.trace()->bounds().start,
             TimeNs(144'940));
    QTest::keyClick(&w, Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(f->statusText(), QStringLiteral("1 of 24"));
    QTest::keyClick(&w, Qt::Key_F3, Qt::ShiftModifier); // wraps to the last
    QCOMPARE(f->statusText(), QStringLiteral("24 of 24"));
    // last aten::mm: ts 1730000002146.453
    QCOMPARE(w.trace()->start(w.timeline()->selectedSlice()) - w.trace()->bounds().start,
             TimeNs(2'046'453));
    QTest::keyClick(f->edit(), Qt::Key_Return); // wraps to the first
    QCOMPARE(f->statusText(), QStringLiteral("1 of 24"));
    QTest::keyClick(f->edit(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(f->statusText(), QStringLiteral("24 of 24"));

    // Substring, any case: 52 names contain "mm" (aten::mm, aten::addmm? no: the GEMM kernels).
    f->edit()->setText(QStringLiteral("MM"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("1 of 52"));
    QTest::mouseClick(f->caseButton(), Qt::LeftButton);
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("no matches"));
    QTest::mouseClick(f->caseButton(), Qt::LeftButton);
    // Regex: aten::mm (24) or aten::sum (4 steps x 3) = 36.
    QTest::mouseClick(f->regexButton(), Qt::LeftButton);
    f->edit()->setText(QStringLiteral("^aten::(mm|sum)$"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("1 of 36"));
    f->edit()->setText(QStringLiteral("(unclosed"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("invalid regex"));
    QTest::keyClick(f->edit(), Qt::Key_Escape);
    QVERIFY(!f->isVisible());
}

void TestMainWindowViews::findBarByArgument() {
    // Find by argument (issue 48) on the sample trace, values read off its JSON with python3.
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    FindBar* f = w.findBar();
    QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(f->isVisible());
    QVERIFY(f->edit()->placeholderText().contains(QStringLiteral("key=value")));
    // Correlation 1006: cudaLaunchKernel at 282.028 µs and the kernel it launched at 307.908 µs
    // (the trace starts at 100.0 µs); the kernel alone by its category.
    QTest::keyClicks(f->edit(), QStringLiteral("correlation=1006 && cat=kernel"));
    QTest::keyClick(f->edit(), Qt::Key_Return);
    QCOMPARE(f->statusText(), QStringLiteral("1 of 1"));
    const SliceRef k = w.timeline()->selectedSlice();
    QCOMPARE(k, f->matches().front());
    QCOMPARE(w.trace()->start(k) - w.trace()->bounds().start, TimeNs(207'908));
    QVERIFY(w.trace()->name(k).starts_with("void at::native::vectorized_elementwise_kernel<4"));
    f->edit()->setText(QStringLiteral("correlation=1006"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("1 of 2"));
    QCOMPARE(w.trace()->name(w.timeline()->selectedSlice()), std::string_view("cudaLaunchKernel"));
    // grid > 512: the 12 kernels of 1024 x 1 x 1 blocks (24 of 64 x 8 x 1 = 512 are not).
    f->edit()->setText(QStringLiteral("grid>512"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("1 of 12"));
    f->edit()->setText(QStringLiteral("nokey=1"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("no event has key 'nokey'"));
    f->edit()->setText(QStringLiteral("grid>big"));
    f->search();
    QCOMPARE(f->statusText(), QStringLiteral("'big' is not a number (in 'grid>big')"));
    QVERIFY(f->matches().empty());
}

void TestMainWindowViews::rangeTable() {
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    const TimeNs t0 = w.trace()->bounds().start;
    // Exactly the first GEMM kernel's interval: [84.503 us, 84.503 + 42.593 us).
    QSignalSpy spy(w.timeline(), &TimelineView::rangeSelected);
    // Every item model is checked against Qt's model rules while it changes.
    QAbstractItemModelTester modelTester(w.panel<RangePanel>()->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(w.panel<RangePanel>()->proxy(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    w.timeline()->setSelectedRange(TimeRange{t0 + 84'503, t0 + 84'503 + 42'593});
    QCOMPARE(spy.count(), 1);
    w.panel<RangePanel>()->waitForJobs();
    const RangeAggregationModel* m = w.panel<RangePanel>()->model();
    int gemmRow = -1;
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, RangeAggregationModel::Name).data().toString() ==
            QString::fromLatin1(kGemm))
            gemmRow = r;
    }
    QVERIFY(gemmRow >= 0);
    QCOMPARE(m->index(gemmRow, RangeAggregationModel::Count)
                 .data(RangeAggregationModel::SortRole)
                 .toULongLong(),
             1ull);
    QCOMPARE(m->index(gemmRow, RangeAggregationModel::Total)
                 .data(RangeAggregationModel::SortRole)
                 .toLongLong(),
             42'593ll);
    // 4 significant digits in the table, the exact value on hover (issue 28).
    QCOMPARE(m->index(gemmRow, RangeAggregationModel::Total).data().toString(),
             QStringLiteral("42.59 \u00b5s"));
    QCOMPARE(m->index(gemmRow, RangeAggregationModel::Total).data(Qt::ToolTipRole).toString(),
             QStringLiteral("42.593 \u00b5s"));
    QVERIFY2(
        w.panel<RangePanel>()->summaryText().contains(QStringLiteral("duration 42.593 \u00b5s")),
        qPrintable(w.panel<RangePanel>()->summaryText()));
    // Clearing the range empties the table.
    w.timeline()->setSelectedRange(std::nullopt);
    w.panel<RangePanel>()->waitForJobs();
    QCOMPARE(m->rowCount(), 0);
}

void TestMainWindowViews::dragOnRulerFillsRangeTable() {
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QWidget* ruler = nullptr;
    for (QWidget* c : w.timeline()->findChildren<QWidget*>()) {
        if (QByteArray(c->metaObject()->className()) == "strata::TimelineRuler") ruler = c;
    }
    QVERIFY(ruler);
    const int y = ruler->height() / 2;
    QTest::mousePress(ruler, Qt::LeftButton, {}, QPoint(ruler->width() / 4, y));
    QTest::mouseMove(ruler, QPoint(ruler->width() / 2, y));
    QTest::mouseRelease(ruler, Qt::LeftButton, {}, QPoint(ruler->width() / 2, y));
    const std::optional<TimeRange> r = w.timeline()->selectedRange();
    QVERIFY(r.has_value());
    w.panel<RangePanel>()->waitForJobs();
    QCOMPARE(w.panel<RangePanel>()->model()->range(), r);
    QVERIFY(w.panel<RangePanel>()->model()->rowCount() > 0);
    // The slice count agrees with a direct scan of the tracks.
    size_t n = 0;
    for (const Track& t : w.trace()->tracks()) {
        for (size_t i = 0; i < t.slices.size(); ++i) {
            const TimeNs s = t.slices.start[i], e = s + t.slices.dur[i];
            n += (t.slices.dur[i] > 0 ? (s < r->end && e > r->start)
                                      : (s >= r->start && s < r->end));
        }
    }
    QCOMPARE(w.panel<RangePanel>()->model()->aggregation().sliceCount, n);
}

void TestMainWindowViews::shortcutHelp() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    int rows = -1;
    QStringList keys;
    QTimer::singleShot(200, this, [&] {
        auto* dlg = qobject_cast<ShortcutHelpDialog*>(QApplication::activeModalWidget());
        if (!dlg) return;
        rows = dlg->table()->rowCount();
        for (int r = 0; r < rows; ++r) keys << dlg->table()->item(r, 0)->text();
        dlg->reject();
    });
    QTest::keyClick(&w, Qt::Key_F1);
    QCOMPARE(rows, int(w.shortcuts().size()));
    for (const QString& k :
         {QStringLiteral("Ctrl+F"), QStringLiteral("F3"), QStringLiteral("Shift+F3"),
          QStringLiteral("W / S"), QStringLiteral("A / D"), QStringLiteral("Home"),
          QStringLiteral("F"), QStringLiteral("Ctrl+O")}) {
        bool found = false;
        for (const QString& s : keys) found |= s.split(QStringLiteral(", ")).contains(k);
        QVERIFY2(found,
                 qPrintable(k + QStringLiteral(" missing from: ") + keys.join(QLatin1Char('|'))));
    }
    QVERIFY(w.action(QStringLiteral("actionShortcuts"))
                ->shortcuts()
                .contains(QKeySequence(Qt::Key_Question)));
}

void TestMainWindowViews::gapThresholdAndFlows() {
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    QCOMPARE(w.gapThresholdBox()->value(), 10); // default 10 us
    w.gapThresholdBox()->setValue(25);
    QCOMPARE(w.timeline()->gapThresholdNs(), TimeNs(25'000));
    QAction* flows = w.action(QStringLiteral("actionShowAllFlows"));
    QVERIFY(flows && flows->isCheckable());
    QVERIFY(!w.timeline()->showAllFlows());
    flows->trigger();
    QVERIFY(w.timeline()->showAllFlows());
}

// Issue 43: every item model of the window (each dock's tables and trees and their sort proxies)
// under QAbstractItemModelTester while a trace opens and its docks fill, a range is selected, the
// gap threshold changes and a second trace replaces the first.
void TestMainWindowViews::everyModelPassesTheModelTester() {
    MainWindow w(testOptions());
    w.resize(1600, 1000);
    w.show();
    QSet<QAbstractItemModel*> watched;
    // A model made later is watched from then on; its tester goes with it.
    auto watchAll = [&] {
        for (QAbstractItemModel* m : w.findChildren<QAbstractItemModel*>()) {
            // Not Qt's own models inside QTreeWidget and the like (their views own them).
            const QByteArray cls = m->metaObject()->className();
            if (cls == "QTreeModel" || cls == "QListModel" || cls == "QTableModel") continue;
            if (watched.contains(m)) continue;
            watched.insert(m);
            new QAbstractItemModelTester(m, QAbstractItemModelTester::FailureReportingMode::QtTest,
                                         m);
        }
    };
    auto settle = [&] {
        for (AnalysisPanel* p : w.findChildren<AnalysisPanel*>()) p->waitForJobs();
        QCoreApplication::processEvents();
        watchAll();
    };
    watchAll();
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    settle();
    const TimeNs t0 = w.trace()->bounds().start;
    w.timeline()->setSelectedRange(TimeRange{t0 + 84'503, t0 + 84'503 + 42'593});
    settle();
    w.gapThresholdBox()->setValue(25);
    settle();
    QVERIFY(w.openSync(OpenRequest::trace(
        QStringLiteral(STRATA_SHARED_TRACES "/hta__mi250_minitoy_train_ROCm6_2_kineto.json.gz"))));
    settle();
    // The call tree, the gaps table, the range table and the stats tables at least, each with
    // its sort proxy.
    int calls = 0, gaps = 0, range = 0, proxies = 0;
    for (QAbstractItemModel* m : std::as_const(watched)) {
        calls += qobject_cast<CallTreeModel*>(m) != nullptr;
        gaps += dynamic_cast<GapsTableModel*>(m) != nullptr;
        range += dynamic_cast<RangeAggregationModel*>(m) != nullptr;
        proxies += qobject_cast<QSortFilterProxyModel*>(m) != nullptr;
    }
    QVERIFY(calls >= 1);
    QVERIFY(gaps >= 1);
    QVERIFY(range >= 1);
    QVERIFY(proxies >= 3);
    qInfo("%lld item models watched", qlonglong(watched.size()));
}

STRATA_TEST_MAIN(TestMainWindowViews)
#include "tst_main_window_views.moc"
