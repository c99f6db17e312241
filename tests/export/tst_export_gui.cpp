// File > Export > Perfetto JSON from the window (offscreen): the actions follow the trace and the
// selected range, the export runs off the GUI thread and writes a file that loads with the same
// slices (the whole trace) or only those overlapping the range.
#include "actions/export_actions.h"
#include "io/trace_loader.h"
#include "support/test_main.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QAction>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

class TestExportGui : public QObject {
    Q_OBJECT
private slots:
    void exportFromTheWindow() {
        QTemporaryDir dir;
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        w.show();
        QAction* whole = w.action(QStringLiteral("actionExportPerfetto"));
        QAction* range = w.action(QStringLiteral("actionExportPerfettoRange"));
        QVERIFY(whole && range);
        QVERIFY(!whole->isEnabled());
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(QStringLiteral(STRATA_SAMPLE_TRACE)), &error),
                 qPrintable(error));
        QVERIFY(whole->isEnabled());
        QVERIFY(!range->isEnabled());

        const QString all = dir.filePath(QStringLiteral("all.json.gz"));
        PerfettoExportResult r = w.exportActions()->exportTo(all, false);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.bytesOut < r.bytes); // gzip'd, by the name
        LoadResult back = loadTrace(all.toStdString());
        QVERIFY(back.ok());
        QCOMPARE(back.trace->sliceCount(), w.trace()->sliceCount());

        const TimeRange b = w.trace()->bounds();
        w.navigation()->setSelectedRange(
            TimeRange{b.start + b.duration() / 3, b.start + b.duration() / 2});
        QVERIFY(range->isEnabled());
        const QString part = dir.filePath(QStringLiteral("part.json"));
        r = w.exportActions()->exportTo(part, true);
        QVERIFY2(r.ok, r.error.c_str());
        back = loadTrace(part.toStdString());
        QVERIFY(back.ok());
        QVERIFY(back.trace->sliceCount() > 0);
        QVERIFY(back.trace->sliceCount() < w.trace()->sliceCount());
        QCOMPARE(back.trace->sliceCount(), size_t(r.slices));

        r = w.exportActions()->exportTo(dir.filePath(QStringLiteral("missing/x.json")), false);
        QVERIFY(!r.ok);
        QVERIFY(QDir(dir.path()).entryList({QStringLiteral("*.partial-*")}, QDir::Files).isEmpty());
    }
};

STRATA_TEST_MAIN(TestExportGui)
#include "tst_export_gui.moc"
