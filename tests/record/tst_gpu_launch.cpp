// GPU (label gpu): the GUI's launch path records kernels/samples/launch_gaps end to end through
// the real collector and the trace opens with its kernels and the run record. Skips, saying
// why, where there is no GPU (the GPU machines lent so far have no Qt either: this runs where
// both are present).
#include "actions/profile_controller.h"
#include "launch/launch_config.h"
#include "panels/trace_info_panel.h"
#include "support/gpu_available.h"
#include "support/test_main.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

class TestGpuLaunch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString why = test::gpuUnavailableReason();
        if (!why.isEmpty())
            QSKIP(qPrintable(why + " (GPU checks owed: see docs/gpu-validation.md)"));
        if (!QFile::exists(QStringLiteral(STRATA_SAMPLES_DIR "/launch_gaps")))
            QSKIP("kernels/samples were not built (no nvcc)");
        QStandardPaths::setTestModeEnabled(true);
    }

    void launchGapsFromTheWindow() {
        QTemporaryDir dir;
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        w.show();
        LaunchConfig c;
        c.executable = QStringLiteral(STRATA_SAMPLES_DIR "/launch_gaps");
        c.arguments = QStringLiteral("1000 50");
        c.output = dir.filePath(QStringLiteral("gaps-{pid}.strata"));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QString error;
        QVERIFY2(w.profile()->launch(c, &error), qPrintable(error));
        QVERIFY(loaded.wait(120000));
        QVERIFY(w.trace());
        size_t kernels = 0;
        for (const Track& t : w.trace()->tracks())
            if (t.kind == TrackKind::GpuStream) kernels += t.slices.size();
        QVERIFY2(kernels >= 1000, qPrintable(QString::number(kernels)));
        QCOMPARE(w.panel<TraceInfoPanel>()->value(QStringLiteral("Exit")),
                 QStringLiteral("the program exited with code 0"));
        QCOMPARE(w.panel<TraceInfoPanel>()->notice(), QString());
    }
};

STRATA_TEST_MAIN(TestGpuLaunch)
#include "tst_gpu_launch.moc"
