// The main window driven through its real widgets (offscreen): loading (worker thread, cancel,
// errors, warnings), details panel content and correlated links, find bar, range table, shortcut
// help, gap threshold, drag and drop. Expected values are read off resources/sample_trace.json
// (written by resources/make_sample_trace.py) by hand / with python3, not from the program.
#include "analysis/slice_search.h"
#include "find_bar.h"
#include "main_window.h"
#include "panels/details_panel.h"
#include "panels/range_aggregation_model.h"
#include "panels/range_panel.h"
#include "panels/warnings_panel.h"
#include "shortcut_help.h"
#include "strata_resources.h"
#include "timeline/timeline_ruler.h"
#include "timeline/timeline_view.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace strata;

namespace {

const QString kSample = QStringLiteral(STRATA_SAMPLE_TRACE);
const QString kData = QStringLiteral(STRATA_TEST_DATA "/gui");
// sample_trace.json: the first GEMM kernel (stream 7, correlation 1002, External id 3) and the
// cudaLaunchKernel / aten::mm that launched it; the trace starts at ts 1730000000100.0 us.
const char* const kGemm = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_"
                          "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";

MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

SliceRef firstNamed(const Trace& t, const std::string& name) {
    const SliceSearchResult r = findSlices(t, {"^" + name + "$", true, true});
    return r.matches.empty() ? SliceRef{} : r.matches.front();
}

bool waitLoad(MainWindow& w, QSignalSpy& spy, bool* ok, bool* cancelled) {
    if (spy.isEmpty() && !spy.wait(30000)) return false;
    const QList<QVariant> args = spy.takeFirst();
    *ok = args.at(0).toBool();
    *cancelled = args.at(1).toBool();
    Q_UNUSED(w);
    return true;
}

void clickValueCell(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    const QRect r = tree->visualItemRect(item);
    const int x = tree->header()->sectionPosition(1) + 12;
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, QPoint(x, r.center().y()));
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void emptyWindowHint();
    void asyncLoad();
    void loadErrorKeepsWindowUsable();
    void cancelledLoad();
    void truncatedFileWarnings();
    void kernelDetails();
    void cpuOpDetails();
    void clickingLinkSelectsTarget();
    void detailsKeepEveryDigit();
    void jumpScrollsToTheTargetRow();
    void findZoomsToASubPixelMatch();
    void rulerLastLabelNotClipped();
    void rightClickMenus();
    void selectionOutlineLeavesTheLabelWhole();
    void findBar();
    void rangeTable();
    void dragOnRulerFillsRangeTable();
    void recentFilesPersist();
    void shortcutHelp();
    void gapThresholdAndFlows();
    void dropOpensFile();
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    initResources();
    QVERIFY2(QFile::exists(kSample), qPrintable(kSample));
}

void TestMainWindow::emptyWindowHint() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.trace());
    QVERIFY(w.findChild<QPushButton*>(QStringLiteral("openButton"))->isVisible());
    QVERIFY(w.findChild<QPushButton*>(QStringLiteral("sampleButton"))->isVisible());
    QVERIFY(!w.timeline()->isVisible());
}

void TestMainWindow::asyncLoad() {
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.openFile(kSample);
    QVERIFY(w.isLoading() || !spy.isEmpty());
    // The welcome page gives way to the load's progress as soon as it starts.
    if (spy.isEmpty()) QCOMPARE(w.currentPage()->objectName(), QStringLiteral("loadingPage"));
    bool ok = false, cancelled = true;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(ok);
    QVERIFY(!cancelled);
    QVERIFY(w.trace());
    QVERIFY(!w.progressBar()->isVisible());
    // 212 "X" events in the sample (python3: ph == "X").
    QCOMPARE(w.trace()->sliceCount(), size_t(212));
    // The sample nests cleanly (durations on the ns grid): no lanes, no warnings.
    QCOMPARE(w.warningsPanel()->count(), 0);
    QVERIFY2(w.statusText().contains(QStringLiteral("212 slices")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("loaded in")), qPrintable(w.statusText()));
    QCOMPARE(w.windowTitle(), QStringLiteral("sample_trace.json \u2014 Strata"));
    QVERIFY(w.timeline()->isVisible());
    QCOMPARE(w.currentPage(), static_cast<QWidget*>(w.timeline()));
    QCOMPARE(w.recentFiles().value(0), QFileInfo(kSample).absoluteFilePath());
}

void TestMainWindow::loadErrorKeepsWindowUsable() {
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.openFile(kData + QStringLiteral("/malformed.json"));
    bool ok = true, cancelled = true;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(!ok);
    QVERIFY(!cancelled);
    QVERIFY(w.isVisible());
    QVERIFY(w.errorBanner()->isVisible());
    const QString e = w.errorText();
    QVERIFY2(e.contains(QStringLiteral("malformed.json")), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("byte ")), qPrintable(e));  // the offset
    QVERIFY2(e.contains(QStringLiteral("line 2")), qPrintable(e)); // the broken top level: line 2
    QVERIFY(!w.trace());
    // Still usable: the next load works and clears the banner.
    w.openFile(kSample);
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(ok);
    QVERIFY(!w.errorBanner()->isVisible());
    QVERIFY(w.trace());
}

void TestMainWindow::cancelledLoad() {
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.openFile(kSample);
    w.cancelLoad();
    bool ok = true, cancelled = false;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(!ok);
    QVERIFY(cancelled);
    QVERIFY(!w.trace());
    QVERIFY(!w.errorBanner()->isVisible()); // a cancel is not an error
    QVERIFY(!w.progressBar()->isVisible());
    QVERIFY(!w.isLoading());
}

void TestMainWindow::truncatedFileWarnings() {
    // The first 40,000 bytes of the sample: the file ends inside an event.
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kData + QStringLiteral("/truncated_sample.json")));
    const QStringList warnings = w.warningsPanel()->warnings();
    QVERIFY(!warnings.isEmpty());
    bool truncated = false;
    for (const QString& s : warnings) truncated |= s.contains(QStringLiteral("truncated"));
    QVERIFY2(truncated, qPrintable(warnings.join(QLatin1Char('\n'))));
    QCOMPARE(warnings.size(), int(w.trace()->warnings().size()));
    const QString count = warnings.size() == 1 ? QStringLiteral("1 warning")
                                               : QStringLiteral("%1 warnings").arg(warnings.size());
    QVERIFY2(w.statusText().contains(count), qPrintable(w.statusText()));
}

void TestMainWindow::kernelDetails() {
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    QVERIFY(k.valid());
    w.timeline()->selectSlice(k);
    w.details()->showSlice(k);
    DetailsPanel* d = w.details();
    QCOMPARE(d->value(QStringLiteral("Name")), QString::fromLatin1(kGemm));
    QCOMPARE(d->value(QStringLiteral("Category")), QStringLiteral("kernel"));
    // ts 1730000000184.503 - 1730000000100.0 = 84.503 us; dur 42.593 us.
    QCOMPARE(d->value(QStringLiteral("Start")), QStringLiteral("84.503 \u00b5s"));
    QCOMPARE(d->value(QStringLiteral("Duration")), QStringLiteral("42.593 \u00b5s"));
    QCOMPARE(d->value(QStringLiteral("Grid")), QStringLiteral("[64, 8, 1]"));
    QCOMPARE(d->value(QStringLiteral("Block")), QStringLiteral("[256, 1, 1]"));
    QCOMPARE(d->value(QStringLiteral("Threads")), QStringLiteral("131072")); // 512 blocks x 256
    QCOMPARE(d->value(QStringLiteral("Registers per thread")), QStringLiteral("168"));
    QCOMPARE(d->value(QStringLiteral("Shared memory")), QStringLiteral("96.0 KiB (98304 B)"));
    QCOMPARE(d->value(QStringLiteral("Device")), QStringLiteral("0"));
    QCOMPARE(d->value(QStringLiteral("Stream")), QStringLiteral("7"));
    QCOMPARE(d->value(QStringLiteral("Correlation id")), QStringLiteral("1002"));
    QCOMPARE(d->value(QStringLiteral("External id")), QStringLiteral("3"));
    QVERIFY(d->value(QStringLiteral("Track")).contains(QStringLiteral("stream 7")));
    // Correlated: launched by cudaLaunchKernel; same External id: aten::mm.
    QStringList links;
    for (QTreeWidgetItem* item : d->linkItems())
        links << item->text(0) + QLatin1Char('=') +
                     item->text(1)
                         .section(QStringLiteral(" \u00b7 "), 1)
                         .section(QLatin1Char(' '), 0, 0);
    QVERIFY2(links.contains(QStringLiteral("Launched by=cudaLaunchKernel")),
             qPrintable(links.join(QLatin1Char('|'))));
    QVERIFY2(links.contains(QStringLiteral("Same External id=aten::mm")),
             qPrintable(links.join(QLatin1Char('|'))));
}

void TestMainWindow::cpuOpDetails() {
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
    const SliceRef op = firstNamed(*w.trace(), "aten::mm");
    QVERIFY(op.valid());
    w.details()->showSlice(op);
    DetailsPanel* d = w.details();
    QCOMPARE(d->value(QStringLiteral("Category")), QStringLiteral("cpu_op"));
    // ts 1730000000168.579 - ...100.0 = 68.579 us; dur 20.893 us.
    QCOMPARE(d->value(QStringLiteral("Start")), QStringLiteral("68.579 \u00b5s"));
    QCOMPARE(d->value(QStringLiteral("Duration")), QStringLiteral("20.893 \u00b5s"));
    QCOMPARE(d->value(QStringLiteral("Sequence number"), QStringLiteral("Arguments")),
             QStringLiteral("103"));
    QCOMPARE(d->value(QStringLiteral("Grid")), QString()); // no launch config on a CPU op
    QVERIFY(d->value(QStringLiteral("Track")).contains(QStringLiteral("python3 (main)")));
    QStringList links;
    for (QTreeWidgetItem* item : d->linkItems())
        links << item->text(0) + QLatin1Char('=') +
                     item->text(1)
                         .section(QStringLiteral(" \u00b7 "), 1)
                         .section(QLatin1Char(' '), 0, 0);
    // External id 3 is shared by the launch and the kernel; the parent is the Linear forward.
    QVERIFY2(links.contains(QStringLiteral("Same External id=cudaLaunchKernel")),
             qPrintable(links.join(QLatin1Char('|'))));
    QVERIFY2(links.contains(QStringLiteral("Same External id=") + QString::fromLatin1(kGemm)),
             qPrintable(links.join(QLatin1Char('|'))));
    QVERIFY2(links.contains(QStringLiteral("Parent=torch/nn/modules/linear.py(125):")),
             qPrintable(links.join(QLatin1Char('|'))));
}

void TestMainWindow::clickingLinkSelectsTarget() {
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openFileSync(kSample));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    w.timeline()->selectSlice(k);
    w.details()->showSlice(k);
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.details()->linkItems()) {
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    }
    QVERIFY(launchedBy);
    clickValueCell(w.details()->tree(), launchedBy);
    const SliceRef sel = w.timeline()->selectedSlice();
    QVERIFY(sel.valid());
    QCOMPARE(w.trace()->name(sel), std::string_view("cudaLaunchKernel"));
    QCOMPARE(sel, w.trace()->launchOf(k));
    // The details now describe the launch: ts 178.774 - 100.0 = 78.774 us.
    QCOMPARE(w.details()->value(QStringLiteral("Name")), QStringLiteral("cudaLaunchKernel"));
    QCOMPARE(w.details()->value(QStringLiteral("Start")), QStringLiteral("78.774 \u00b5s"));
    // ... and link back to the kernel it launched.
    QTreeWidgetItem* launched = nullptr;
    for (QTreeWidgetItem* item : w.details()->linkItems()) {
        if (item->text(0) == QStringLiteral("Launched")) launched = item;
    }
    QVERIFY(launched);
    clickValueCell(w.details()->tree(), launched);
    QCOMPARE(w.timeline()->selectedSlice(), k);
    // The keyboard is the timeline's again, and the jump brought the target's row into view.
    QTRY_VERIFY(w.timeline()->hasFocus() ||
                w.timeline()->isAncestorOf(QApplication::focusWidget()));
    const QRect row = w.timeline()->trackRect(k.track);
    QVERIFY(!row.isNull());
    QVERIFY2(w.timeline()->tracksArea()->rect().contains(row),
             qPrintable(QStringLiteral("row y %1..%2").arg(row.top()).arg(row.bottom())));
}

void TestMainWindow::jumpScrollsToTheTargetRow() {
    // A deep CPU stack pushes the launching thread below the fold; "Launched by" from the
    // kernel scrolls to it.
    MainWindow w(testOptions());
    w.resize(1200, 420);
    QVERIFY(w.openFileSync(kSample));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    const SliceRef launch = w.trace()->launchOf(k);
    QVERIFY(launch.valid());
    w.timeline()->selectSlice(k);
    w.details()->showSlice(k);
    // Scroll the launching thread out of view (the GPU rows come first).
    w.timeline()->setVerticalScroll(0);
    QTest::qWait(20);
    const QRect before = w.timeline()->sliceRect(launch);
    QVERIFY2(before.isNull() || !w.timeline()->tracksArea()->rect().contains(before.center()),
             qPrintable(QStringLiteral("already in view at y %1").arg(before.center().y())));
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.details()->linkItems())
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    QVERIFY(launchedBy);
    clickValueCell(w.details()->tree(), launchedBy);
    QCOMPARE(w.timeline()->selectedSlice(), launch);
    const QRect target = w.timeline()->sliceRect(launch);
    QVERIFY2(!target.isNull() && w.timeline()->tracksArea()->rect().contains(target.center()),
             qPrintable(QStringLiteral("slice at y %1").arg(target.center().y())));
    QTRY_VERIFY(w.timeline()->hasFocus() ||
                w.timeline()->isAncestorOf(QApplication::focusWidget()));
}

void TestMainWindow::detailsKeepEveryDigit() {
    // A launch 1.234567891 s after the trace start (10 digits of ns) and its kernel, which
    // carries no launch configuration.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("digits.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "first", "pid": 1, "tid": 1, "ts": 1000, "dur": 1},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
 "ts": 1235567.891, "dur": 5, "args": {"correlation": 5}},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1235580, "dur": 3,
 "args": {"device": 0, "stream": 7, "correlation": 5}}]})");
    f.close();
    MainWindow w(testOptions());
    w.resize(900, 700); // a narrow Details dock
    QVERIFY(w.openFileSync(path));
    w.show();
    const SliceRef k = firstNamed(*w.trace(), "k");
    w.details()->showSlice(k);
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.details()->linkItems())
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    QVERIFY(launchedBy);
    // The time first and whole (names elide, numbers never).
    QVERIFY2(launchedBy->text(1).startsWith(
                 QStringLiteral("1.234\u2009567\u2009891 s \u00b7 cudaLaunchKernel")),
             qPrintable(launchedBy->text(1)));
    QCOMPARE(w.details()->tree()->textElideMode(), Qt::ElideRight);
    QCOMPARE(w.details()->value(QStringLiteral("Start")), QStringLiteral("1.234\u200958 s"));
    QCOMPARE(w.details()->value(QStringLiteral("Grid")), QStringLiteral("\u2014 (not recorded)"));
    QCOMPARE(w.details()->value(QStringLiteral("Block")), QStringLiteral("\u2014 (not recorded)"));
    QCOMPARE(w.details()->value(QStringLiteral("Threads")),
             QStringLiteral("\u2014 (not recorded)"));
}

void TestMainWindow::findZoomsToASubPixelMatch() {
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
    QVERIFY(w.openFileSync(path));
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

void TestMainWindow::rulerLastLabelNotClipped() {
    // At many widths, no label text touches the ruler's right edge (the last label used to run
    // off it): the rightmost columns above the tick marks hold no text pixel.
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
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

void TestMainWindow::rightClickMenus() {
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openFileSync(kSample));
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

void TestMainWindow::selectionOutlineLeavesTheLabelWhole() {
    // The outline of the selected slice lies outside it: no pixel inside the slice (where its
    // label's underscores sit) has the outline's colour, the pixel just left of it has.
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openFileSync(kSample));
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
    w.details()->showSlice(k);
    auto* title = w.details()->findChild<QLabel*>(QStringLiteral("detailsTitle"));
    QVERIFY(title);
    QCOMPARE(title->toolTip(), QString::fromLatin1(kGemm));
    auto* copy = w.details()->findChild<QAction*>(QStringLiteral("copySliceName"));
    QVERIFY(copy);
    copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QString::fromLatin1(kGemm));
}

void TestMainWindow::findBar() {
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
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

void TestMainWindow::rangeTable() {
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
    const TimeNs t0 = w.trace()->bounds().start;
    // Exactly the first GEMM kernel's interval: [84.503 us, 84.503 + 42.593 us).
    QSignalSpy spy(w.timeline(), &TimelineView::rangeSelected);
    // Every item model is checked against Qt's model rules while it changes.
    QAbstractItemModelTester modelTester(w.rangePanel()->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(w.rangePanel()->proxy(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    w.timeline()->setSelectedRange(TimeRange{t0 + 84'503, t0 + 84'503 + 42'593});
    QCOMPARE(spy.count(), 1);
    w.rangePanel()->waitForJobs();
    const RangeAggregationModel* m = w.rangePanel()->model();
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
    QVERIFY2(w.rangePanel()->summaryText().contains(QStringLiteral("duration 42.593 \u00b5s")),
             qPrintable(w.rangePanel()->summaryText()));
    // Clearing the range empties the table.
    w.timeline()->setSelectedRange(std::nullopt);
    w.rangePanel()->waitForJobs();
    QCOMPARE(m->rowCount(), 0);
}

void TestMainWindow::dragOnRulerFillsRangeTable() {
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openFileSync(kSample));
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
    w.rangePanel()->waitForJobs();
    QCOMPARE(w.rangePanel()->model()->range(), r);
    QVERIFY(w.rangePanel()->model()->rowCount() > 0);
    // The slice count agrees with a direct scan of the tracks.
    size_t n = 0;
    for (const Track& t : w.trace()->tracks()) {
        for (size_t i = 0; i < t.slices.size(); ++i) {
            const TimeNs s = t.slices.start[i], e = s + t.slices.dur[i];
            n += (t.slices.dur[i] > 0 ? (s < r->end && e > r->start)
                                      : (s >= r->start && s < r->end));
        }
    }
    QCOMPARE(w.rangePanel()->model()->aggregation().sliceCount, n);
}

void TestMainWindow::recentFilesPersist() {
    // A private settings scope: the real user's recent files stay untouched.
    const QString org = QCoreApplication::organizationName();
    QCoreApplication::setOrganizationName(
        QStringLiteral("StrataTest-%1").arg(QCoreApplication::applicationPid()));
    QSettings().clear();
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("recent.json"));
    QVERIFY(QFile::copy(kSample, copy));
    {
        MainWindow w;
        QVERIFY(w.openFileSync(copy));
        w.close();
    }
    MainWindow w2;
    QCOMPARE(w2.recentFiles().value(0), QFileInfo(copy).absoluteFilePath());
    // File > Open Recent > recent.json loads it (on the worker thread).
    QAction* item = nullptr;
    for (QAction* a : w2.findChildren<QAction*>()) {
        if (a->text() == QStringLiteral("recent.json")) item = a;
    }
    QVERIFY(item);
    QSignalSpy spy(&w2, &MainWindow::loadFinished);
    item->trigger();
    bool ok = false, cancelled = true;
    QVERIFY(waitLoad(w2, spy, &ok, &cancelled));
    QVERIFY(ok);
    QCOMPARE(w2.currentFile(), QFileInfo(copy).absoluteFilePath());
    QSettings().clear();
    QCoreApplication::setOrganizationName(org);
}

void TestMainWindow::shortcutHelp() {
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

void TestMainWindow::gapThresholdAndFlows() {
    MainWindow w(testOptions());
    QVERIFY(w.openFileSync(kSample));
    QCOMPARE(w.gapThresholdBox()->value(), 10); // default 10 us
    w.gapThresholdBox()->setValue(25);
    QCOMPARE(w.timeline()->gapThresholdNs(), TimeNs(25'000));
    QAction* flows = w.action(QStringLiteral("actionShowAllFlows"));
    QVERIFY(flows && flows->isCheckable());
    QVERIFY(!w.timeline()->showAllFlows());
    flows->trigger();
    QVERIFY(w.timeline()->showAllFlows());
}

void TestMainWindow::dropOpensFile() {
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("dropped.json"));
    QVERIFY(QFile::copy(kSample, copy));
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(copy)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    bool ok = false, cancelled = true;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(ok);
    QCOMPARE(w.currentFile(), QFileInfo(copy).absoluteFilePath());
    QCOMPARE(w.recentFiles().value(0), QFileInfo(copy).absoluteFilePath());
    QCOMPARE(w.windowTitle(), QStringLiteral("dropped.json \u2014 Strata"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
