// A program's timeline drawn while it runs (issue 50), on the offscreen platform: the stand-in
// CUPTI harness launches kernels until the test lets it end, and the window shows its records
// before it does (the trace amended picture after picture, following the newest time, the docks
// kept until asked); when it ends, the run's final trace replaces the live one, whole. A long
// run's pictures hold its newest rows only, and say so; its final trace is whole.
#include "actions/live_feed.h"
#include "actions/profile_controller.h"
#include "io/trace_loader.h"
#include "launch/launch_config.h"
#include "launch/run_controller.h"
#include "panels/console_panel.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "support/trace_counts.h"
#include "window/main_window.h"
#include "workspace/analysis_panel.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>
#include <optional>

using namespace strata;
using strata::test::kernelsIn;

namespace {

// The harness launching kernels at `rate` a second, live, until the file `until` exists.
LaunchConfig pacedUntil(const QString& until, int rate, const QString& output) {
    LaunchConfig c;
    c.executable = QStringLiteral(STRATA_COLLECTOR_HARNESS);
    c.arguments = QStringLiteral("paced");
    c.environment = QStringLiteral("HARNESS_UNTIL=%1\nHARNESS_RATE=%2").arg(until).arg(rate);
    c.output = output;
    c.live = true;
    return c;
}

// What the harness printed in the console as "kernels=N": N, or nothing.
std::optional<QString> kernelsLaunched(const QString& console) {
    const qsizetype at = console.indexOf(QStringLiteral("kernels="));
    if (at < 0) return std::nullopt;
    return console.mid(at + 8).section(QLatin1Char('\n'), 0, 0);
}

// A window shown, its settings not restored, whose runs open their trace in it.
struct SameWindow {
    static MainWindow::Options fresh() {
        MainWindow::Options o;
        o.restoreSettings = false;
        return o;
    }
    SameWindow() : window(fresh()) {
        window.show();
        window.profile()->sameWindowOnly = true;
    }
    MainWindow window;
};

} // namespace

class TestLaunchLive : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // The harness links the collector itself: the launcher only needs a file to name.
        test::standInCollectorFile(dir_.path().toStdString());
    }

    void drawnWhileItRuns() {
        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        w.resize(1200, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ProfileController* p = w.profile();
        p->sameWindowOnly = true;
        const QString until = dir_.filePath(QStringLiteral("until"));
        const LaunchConfig c =
            pacedUntil(until, 1000, dir_.filePath(QStringLiteral("live-{pid}.strata")));
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));

        // Pictures arrive while the program runs (it ends only when told).
        LiveFeed* live = p->live();
        QTRY_VERIFY_WITH_TIMEOUT(live->pictures() >= 2, 60000);
        QVERIFY(p->running());
        QVERIFY(w.workspace()->live());
        std::shared_ptr<const Trace> shown = w.workspace()->current();
        QVERIFY(shown);
        QVERIFY(kernelsIn(*shown) > 0);
        // Follow: the view ends at the newest time.
        QCOMPARE(w.navigation()->visibleRange().end, shown->contentBounds().end);
        QVERIFY(live->behindMs() >= 0);

        // A dock keeps what it shows while the trace moves on, until asked.
        AnalysisPanel* dock = nullptr; // one that shows something
        auto showing = [&] {
            for (AnalysisPanel* d : w.findChildren<AnalysisPanel*>())
                if (d->analysis()) dock = d;
            return dock != nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(showing(), 60000);
        const Trace* before = dock->analysis()->tracePtr().get();
        const int pictures = live->pictures();
        QTRY_VERIFY_WITH_TIMEOUT(live->pictures() > pictures, 60000);
        QVERIFY(w.workspace()->current().get() != before);
        QCOMPARE(dock->analysis()->tracePtr().get(), before);
        w.workspace()->refreshLive();
        QTRY_VERIFY_WITH_TIMEOUT(dock->analysis() && dock->analysis()->tracePtr().get() != before,
                                 60000);

        // The end: the final trace, whole, replaces the live one.
        QFile done(until);
        QVERIFY(done.open(QIODevice::WriteOnly));
        done.close();
        QTRY_VERIFY_WITH_TIMEOUT(!p->running(), 60000);
        QVERIFY(!live->active());
        QVERIFY(!w.workspace()->live());
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->currentTrace() &&
                                     w.workspace()->currentTrace()->path.endsWith(".strata") &&
                                     !w.workspace()->currentTrace()->label.contains("running"),
                                 60000);
        const QString console = p->console()->shownText();
        const std::optional<QString> launched = kernelsLaunched(console);
        QVERIFY2(launched, qPrintable(console));
        QCOMPARE(QString::number(kernelsIn(*w.workspace()->current())), *launched);
    }

    // Pictures of at most 64 KiB of rows (LiveFeed::setRowBytes): once the file is longer, a
    // picture starts later than the run's first kernel and holds fewer kernels than the file; the
    // status line says that the newest part is shown; the final trace holds every kernel.
    void longRunShowsItsNewestRows() {
        SameWindow shownWindow;
        MainWindow& w = shownWindow.window;
        ProfileController* p = w.profile();
        LiveFeed* live = p->live();
        live->setRowBytes(64 << 10);
        const QString until = dir_.filePath(QStringLiteral("until-long"));
        const LaunchConfig c =
            pacedUntil(until, 5000, dir_.filePath(QStringLiteral("long-{pid}.strata")));
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        // A picture of a file eight times the rows it may hold.
        const QString path =
            dir_.filePath(QStringLiteral("long-%1.strata").arg(p->runner()->run().pid));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(path).size() > 8 * (64 << 10), 60000);
        const int pictures = live->pictures();
        QTRY_VERIFY_WITH_TIMEOUT(live->pictures() > pictures, 60000);
        QVERIFY(live->newestOnlyMs() >= 0);
        std::shared_ptr<const Trace> shown = w.workspace()->current();
        QVERIFY(shown);
        LoadOptions whole;
        whole.growing = true;
        const LoadResult file = loadTrace(path.toStdString(), whole);
        QVERIFY(file.ok());
        QVERIFY(kernelsIn(*shown) > 0);
        QVERIFY(kernelsIn(*shown) < kernelsIn(*file.trace));
        QVERIFY(shown->contentBounds().start > file.trace->contentBounds().start);
        QTRY_VERIFY_WITH_TIMEOUT(p->console()->statusText().contains(QStringLiteral("the newest")),
                                 60000);

        QFile done(until);
        QVERIFY(done.open(QIODevice::WriteOnly));
        done.close();
        QTRY_VERIFY_WITH_TIMEOUT(!p->running(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->currentTrace() &&
                                     !w.workspace()->currentTrace()->label.contains("running"),
                                 60000);
        const QString console = p->console()->shownText();
        const std::optional<QString> launched = kernelsLaunched(console);
        QVERIFY2(launched, qPrintable(console));
        QCOMPARE(QString::number(kernelsIn(*w.workspace()->current())), *launched);
    }

    // A program that ends at once: no live picture is needed, nothing waits for one, and its
    // trace opens as any run's does.
    void endsInItsFirstMillisecond() {
        SameWindow shownWindow;
        MainWindow& w = shownWindow.window;
        ProfileController* p = w.profile();
        LaunchConfig c;
        c.executable = QStringLiteral(STRATA_COLLECTOR_HARNESS);
        c.arguments = QStringLiteral("small");
        c.output = dir_.filePath(QStringLiteral("small-{pid}.strata"));
        c.live = true;
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        QVERIFY(p->live()->active());
        QTRY_VERIFY_WITH_TIMEOUT(!p->running(), 60000);
        QVERIFY(!p->live()->active());
        QVERIFY(!w.workspace()->live());
        QTRY_VERIFY_WITH_TIMEOUT(w.workspace()->current() != nullptr, 60000);
        QCOMPARE(kernelsIn(*w.workspace()->current()), size_t(1));
    }

    // A window destroyed while it draws a run live (the run is killed with it): nothing of the
    // live view outlives it or touches what went before it.
    void windowGoneWhileLive() {
        MainWindow::Options o;
        o.restoreSettings = false;
        auto w = std::make_unique<MainWindow>(o);
        w->show();
        ProfileController* p = w->profile();
        LaunchConfig c;
        c.executable = QStringLiteral(STRATA_COLLECTOR_HARNESS);
        c.arguments = QStringLiteral("paced");
        c.environment = QStringLiteral("HARNESS_UNTIL=%1").arg(dir_.filePath("never"));
        c.output = dir_.filePath(QStringLiteral("gone-{pid}.strata"));
        c.live = true;
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(p->live()->pictures() >= 1, 60000);
        const pid_t target = pid_t(p->runner()->run().pid);
        w.reset();
        QTRY_VERIFY_WITH_TIMEOUT(::kill(target, 0) != 0, 30000);
    }
};

STRATA_TEST_MAIN(TestLaunchLive)
#include "tst_launch_live.moc"
