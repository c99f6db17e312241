// The main window driven through its real widgets (offscreen): loading (worker thread, cancel,
// errors, warnings), the details panel's content and correlated links, recent files, drag and
// drop. Expected values are read off resources/sample_trace.json (written by
// resources/make_sample_trace.py) by hand / with python3, not from the program.
#include "launch/launch_dialog.h"
#include "open/sections_import_dialog.h"
#include "style/theme.h"
#include "support/main_window_fixture.h"
#include "support/test_main.h"
#include "timeline/tracks_area.h"
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QSlider>
#include <QToolButton>

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
    void jumpScrollsToTheTargetRow();
    void detailsKeepEveryDigit();
    void recentFilesPersist();
    void dropOpensFile();
    void darkTheme();
    void everyControlHasATooltip();
};

void TestMainWindow::initTestCase() {
    initMainWindowTests();
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
    w.open(OpenRequest::trace(kSample));
    QVERIFY(w.loader()->isLoading() || !spy.isEmpty());
    // The welcome page gives way to the load's progress as soon as it starts.
    if (spy.isEmpty())
        QCOMPARE(w.pages()->currentWidget()->objectName(), QStringLiteral("loadingPage"));
    bool ok = false, cancelled = true;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(ok);
    QVERIFY(!cancelled);
    QVERIFY(w.trace());
    QVERIFY(!w.status()->progressBar()->isVisible());
    // 212 "X" events in the sample (python3: ph == "X").
    QCOMPARE(w.trace()->sliceCount(), size_t(212));
    // The sample nests cleanly (durations on the ns grid): no lanes, no warnings.
    QCOMPARE(w.panel<WarningsPanel>()->count(), 0);
    // 120 "s"/"f" events: 60 flows; the first timestamp 1730000000100 µs, the last end
    // 1730000002315.889 µs (python3 over the file): a span of 2215.889 µs.
    QVERIFY2(w.statusText().contains(QStringLiteral("212 slices, 60 flows")),
             qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("span 2.216 ms")), qPrintable(w.statusText()));
    // The time under the mouse: the tracks' left edge is the trace's start.
    QWidget* tracks = w.timeline()->findChild<TracksArea*>();
    QVERIFY(tracks);
    QTest::mouseMove(tracks, QPoint(0, 5));
    QTRY_VERIFY2(w.statusText().startsWith(QStringLiteral("at 0 ns")), qPrintable(w.statusText()));
    QVERIFY2(w.statusText().contains(QStringLiteral("loaded in")), qPrintable(w.statusText()));
    QCOMPARE(w.windowTitle(), QStringLiteral("sample_trace.json \u2014 Strata"));
    QVERIFY(w.timeline()->isVisible());
    QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.timeline()));
    QCOMPARE(w.recentFiles().value(0), QFileInfo(kSample).absoluteFilePath());
}

void TestMainWindow::loadErrorKeepsWindowUsable() {
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.open(OpenRequest::trace(kData + QStringLiteral("/malformed.json")));
    bool ok = true, cancelled = true;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(!ok);
    QVERIFY(!cancelled);
    QVERIFY(w.isVisible());
    QVERIFY(w.banner()->isVisible());
    const QString e = w.errorText();
    QVERIFY2(e.contains(QStringLiteral("malformed.json")), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("byte ")), qPrintable(e));  // the offset
    QVERIFY2(e.contains(QStringLiteral("line 2")), qPrintable(e)); // the broken top level: line 2
    QVERIFY(!w.trace());
    // Still usable: the next load works and clears the banner.
    w.open(OpenRequest::trace(kSample));
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(ok);
    QVERIFY(!w.banner()->isVisible());
    QVERIFY(w.trace());
}

void TestMainWindow::cancelledLoad() {
    MainWindow w(testOptions());
    w.show();
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.open(OpenRequest::trace(kSample));
    w.loader()->cancel();
    bool ok = true, cancelled = false;
    QVERIFY(waitLoad(w, spy, &ok, &cancelled));
    QVERIFY(!ok);
    QVERIFY(cancelled);
    QVERIFY(!w.trace());
    QVERIFY(!w.banner()->isVisible()); // a cancel is not an error
    QVERIFY(!w.status()->progressBar()->isVisible());
    QVERIFY(!w.loader()->isLoading());
}

void TestMainWindow::truncatedFileWarnings() {
    // The first 40,000 bytes of the sample: the file ends inside an event.
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kData + QStringLiteral("/truncated_sample.json"))));
    const QStringList warnings = w.panel<WarningsPanel>()->warnings();
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
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    QVERIFY(k.valid());
    w.timeline()->selectSlice(k);
    w.panel<DetailsPanel>()->showSlice(k);
    DetailsPanel* d = w.panel<DetailsPanel>();
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
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    const SliceRef op = firstNamed(*w.trace(), "aten::mm");
    QVERIFY(op.valid());
    w.panel<DetailsPanel>()->showSlice(op);
    DetailsPanel* d = w.panel<DetailsPanel>();
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
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    w.timeline()->selectSlice(k);
    w.panel<DetailsPanel>()->showSlice(k);
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.panel<DetailsPanel>()->linkItems()) {
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    }
    QVERIFY(launchedBy);
    clickValueCell(w.panel<DetailsPanel>()->tree(), launchedBy);
    const SliceRef sel = w.timeline()->selectedSlice();
    QVERIFY(sel.valid());
    QCOMPARE(w.trace()->name(sel), std::string_view("cudaLaunchKernel"));
    QCOMPARE(sel, w.trace()->launchOf(k));
    // The details now describe the launch: ts 178.774 - 100.0 = 78.774 us.
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Name")),
             QStringLiteral("cudaLaunchKernel"));
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Start")),
             QStringLiteral("78.774 \u00b5s"));
    // ... and link back to the kernel it launched.
    QTreeWidgetItem* launched = nullptr;
    for (QTreeWidgetItem* item : w.panel<DetailsPanel>()->linkItems()) {
        if (item->text(0) == QStringLiteral("Launched")) launched = item;
    }
    QVERIFY(launched);
    clickValueCell(w.panel<DetailsPanel>()->tree(), launched);
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
    // A deep CPU stack pushes the launching thread below the fold of a short window with a
    // bottom dock open (docks open on demand since issue 28: the user opens Gaps);
    // "Launched by" from the kernel scrolls to it.
    MainWindow w(testOptions());
    w.resize(1200, 420);
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* gaps = w.findChild<QDockWidget*>(QStringLiteral("gapsDock"));
    gaps->show();
    w.resizeDocks({gaps}, {210}, Qt::Vertical);
    const SliceRef k = firstNamed(*w.trace(), kGemm);
    const SliceRef launch = w.trace()->launchOf(k);
    QVERIFY(launch.valid());
    w.timeline()->selectSlice(k);
    w.panel<DetailsPanel>()->showSlice(k);
    // Scroll the launching thread out of view (the GPU rows come first).
    w.timeline()->setVerticalScroll(0);
    QTest::qWait(20);
    const QRect before = w.timeline()->sliceRect(launch);
    QVERIFY2(before.isNull() || !w.timeline()->tracksArea()->rect().contains(before.center()),
             qPrintable(QStringLiteral("already in view at y %1").arg(before.center().y())));
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.panel<DetailsPanel>()->linkItems())
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    QVERIFY(launchedBy);
    clickValueCell(w.panel<DetailsPanel>()->tree(), launchedBy);
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
    QVERIFY(w.openSync(OpenRequest::trace(path)));
    w.show();
    const SliceRef k = firstNamed(*w.trace(), "k");
    w.panel<DetailsPanel>()->showSlice(k);
    QTreeWidgetItem* launchedBy = nullptr;
    for (QTreeWidgetItem* item : w.panel<DetailsPanel>()->linkItems())
        if (item->text(0) == QStringLiteral("Launched by")) launchedBy = item;
    QVERIFY(launchedBy);
    // The time first and whole (names elide, numbers never).
    QVERIFY2(launchedBy->text(1).startsWith(
                 QStringLiteral("1.234\u2009567\u2009891 s \u00b7 cudaLaunchKernel")),
             qPrintable(launchedBy->text(1)));
    QCOMPARE(w.panel<DetailsPanel>()->tree()->textElideMode(), Qt::ElideRight);
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Start")),
             QStringLiteral("1.234\u200958 s"));
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Grid")),
             QStringLiteral("\u2014 (not recorded)"));
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Block")),
             QStringLiteral("\u2014 (not recorded)"));
    QCOMPARE(w.panel<DetailsPanel>()->value(QStringLiteral("Threads")),
             QStringLiteral("\u2014 (not recorded)"));
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
        QVERIFY(w.openSync(OpenRequest::trace(copy)));
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

// View > Theme: the dark palette darkens the timeline's own surfaces (its background pixel read
// off a grab); back to the system's, they are the light ones the timeline always had.
void TestMainWindow::darkTheme() {
    MainWindow w(testOptions());
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    for (const char* name : {"actionTheme_system", "actionTheme_light", "actionTheme_dark"})
        QVERIFY2(w.action(QString::fromLatin1(name)), name);
    QWidget* tracks = w.timeline()->findChild<TracksArea*>();
    const QPoint empty(tracks->width() - 5, tracks->height() - 5); // below every track
    applyTheme(Theme::Dark);
    QVERIFY(themeColors().dark);
    QCOMPARE(tracks->grab().toImage().pixelColor(empty), themeColors().background);
    QVERIFY(themeColors().background.lightness() < 64);
    applyTheme(Theme::System);
    QVERIFY(!themeColors().dark);
    QCOMPARE(themeColors().background, QColor::fromRgb(0xfffcfcfd));
    QCOMPARE(tracks->grab().toImage().pixelColor(empty), QColor::fromRgb(0xfffcfcfd));
}

// The controls under `root` (buttons, choosers, number and text fields) that say nothing when
// hovered: no tooltip of their own nor of their action. Qt's own parts are left out.
QStringList missingTooltips(QWidget* root) {
    QStringList missing;
    for (QWidget* c : root->findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(c) || qobject_cast<QComboBox*>(c) ||
                             qobject_cast<QAbstractSpinBox*>(c) || qobject_cast<QLineEdit*>(c) ||
                             qobject_cast<QSlider*>(c);
        if (!control || !c->toolTip().isEmpty()) continue;
        if (qobject_cast<QAbstractSpinBox*>(c->parentWidget()) ||
            qobject_cast<QComboBox*>(c->parentWidget()))
            continue; // the line edit inside a spin box or an editable chooser
        if (auto* b = qobject_cast<QToolButton*>(c);
            b && b->defaultAction() && !b->defaultAction()->toolTip().isEmpty())
            continue;
        // Qt's own parts: a table's corner, a tab bar's scroll arrows, a field's clear button,
        // a dock's float and close buttons, a dialog's standard buttons.
        const QString cls = QString::fromLatin1(c->metaObject()->className());
        if (c->objectName().startsWith(QLatin1String("qt_")) || cls == "QTableCornerButton" ||
            cls == "QLineEditIconButton" || c->objectName() == "ScrollLeftButton" ||
            c->objectName() == "ScrollRightButton" ||
            qobject_cast<QDockWidget*>(c->parentWidget()) ||
            qobject_cast<QDialogButtonBox*>(c->parentWidget()))
            continue;
        QString name = cls;
        if (!c->objectName().isEmpty()) name += QLatin1Char('#') + c->objectName();
        if (auto* b = qobject_cast<QAbstractButton*>(c))
            name += QLatin1String(" '") + b->text() + "'";
        for (QWidget* p = c->parentWidget(); p && p != root; p = p->parentWidget())
            if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_"))) {
                name += QLatin1String(" in ") + p->objectName();
                break;
            }
        missing << name;
    }
    for (const QString& m : missing) qWarning("no tooltip: %s", qPrintable(m));
    return missing;
}

// Every control says what it does when hovered: the window and its docks with a trace, with the
// ranks of a job (the Ranks dock), with two runs compared (the Compare dock), and the Launch
// dialog.
void TestMainWindow::everyControlHasATooltip() {
    MainWindow w(testOptions());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    QCOMPARE(missingTooltips(&w), QStringList());
    QVERIFY(w.openSync(OpenRequest::comparison(kSample, kSample)));
    QCOMPARE(missingTooltips(&w), QStringList());
    const QDir dlrm(QStringLiteral(STRATA_SHARED_TRACES "/multirank/param-dlrm"));
    QStringList ranks;
    for (const QString& f : dlrm.entryList({"worker*.json"}, QDir::Files, QDir::Name))
        ranks << dlrm.filePath(f);
    if (ranks.size() == 8) {
        QVERIFY(w.openSync(OpenRequest::paths(ranks)));
        QCOMPARE(missingTooltips(&w), QStringList());
    }
    LaunchDialog dialog(&w);
    QCOMPARE(missingTooltips(&dialog), QStringList());
    SectionsImportDialog import(QStringLiteral("times.npy"), &w, false);
    QCOMPARE(missingTooltips(&import), QStringList());
}

STRATA_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
