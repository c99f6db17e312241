#include "modes/launch_mode.h"

#include "actions/profile_controller.h"
#include "launch/launch_dialog.h"
#include "modes/launch_live_frames.h"
#include "modes/screenshot.h"
#include "panels/console_panel.h"
#include "util/shell_words.h"
#include "window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QPixmap>
#include <QPointer>
#include <QTimer>

#include <cstdio>

namespace strata {
namespace {

bool save(QWidget* w, const QString& path) {
    const QPixmap shot = w->grab();
    if (shot.isNull() || !shot.save(path, "PNG")) {
        std::fprintf(stderr, "strata: cannot write the screenshot to %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s (%dx%d)\n", qPrintable(path), shot.width(), shot.height());
    std::fflush(stdout);
    return true;
}

} // namespace

QList<QCommandLineOption> LaunchModeOptions::all() const {
    return {launch,    run,         output,        capture,   cwd,          env,
            unset,     noCollector, duration,      flushMs,   captureRange, remote,
            sshOption, gpuMetrics,  kernelMetrics, liveFrames};
}

int runLaunchMode(const QCommandLineParser& parser, const LaunchModeOptions& o,
                  const QStringList& command, const QString& screenshot, QSize size) {
    LaunchConfig c;
    if (!command.isEmpty()) {
        c.executable = command.front();
        std::vector<std::string> args;
        for (qsizetype i = 1; i < command.size(); ++i) args.push_back(command[i].toStdString());
        c.arguments = QString::fromStdString(joinShellWords(args));
    }
    c.output = parser.value(o.output);
    if (parser.isSet(o.capture)) c.capture = parser.value(o.capture).split(QLatin1Char(','));
    if (c.capture == QStringList{QStringLiteral("all")}) c.capture.clear();
    c.workingDirectory = parser.value(o.cwd);
    c.environment = parser.values(o.env).join(QLatin1Char('\n'));
    c.unset = parser.values(o.unset);
    c.withoutCapture = parser.isSet(o.noCollector);
    c.durationS = parser.value(o.duration).toDouble();
    c.flushMs = parser.value(o.flushMs).toInt();
    c.captureRange = parser.value(o.captureRange);
    c.remote = parser.value(o.remote);
    c.sshOptions = parser.values(o.sshOption);
    c.gpuMetrics = parser.value(o.gpuMetrics);
    c.kernelMetrics = parser.value(o.kernelMetrics);

    if (!parser.isSet(o.run)) {
        LaunchDialog dialog;
        dialog.setConfig(c);
        if (!screenshot.isEmpty()) {
            dialog.show();
            settleEvents(150);
            return save(&dialog, screenshot) ? 0 : 1;
        }
        if (dialog.exec() != QDialog::Accepted) return 0;
        c = dialog.config();
    }

    MainWindow::Options wo;
    wo.restoreSettings = screenshot.isEmpty();
    auto* w = new MainWindow(wo);
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (!screenshot.isEmpty()) w->resize(size);
    w->show();
    ProfileController* p = w->profile();
    p->sameWindowOnly = !screenshot.isEmpty();
    QString error;
    if (!p->launch(c, &error)) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(error));
        delete w;
        return 2;
    }
    // The window is deleted before returning, whatever ended the loop: closing it deletes it on
    // the way, but a loop ended otherwise would leave it, and its console, to the process's exit.
    const QPointer<MainWindow> window(w);
    if (screenshot.isEmpty()) {
        const int code = QApplication::exec();
        delete window.data();
        return code;
    }

    int code = 1;
    if (parser.isSet(o.liveFrames)) { // measured and rendered while the program runs
        measureLiveFrames(w, parser.value(o.liveFrames).toDouble(), [&code, w, screenshot] {
            code = save(w, screenshot) ? 0 : 1;
            QApplication::exit(code);
        });
        QApplication::exec();
        if (window) {
            window->profile()->quit(); // stops the program as Stop does, then closes
            while (window && window->profile()->running()) QApplication::processEvents();
            delete window.data();
        }
        return code;
    }
    QObject::connect(p, &ProfileController::runFinished, w,
                     [&code, w, screenshot, size](const QStringList& files, bool) {
                         auto shoot = [&code, w, screenshot, size] {
                             w->resize(size);
                             settleEvents(200);
                             code = save(w, screenshot) ? 0 : 1;
                             QApplication::exit(code);
                         };
                         if (files.isEmpty()) {
                             shoot();
                             return;
                         }
                         QObject::connect(w, &MainWindow::loadFinished, w,
                                          [shoot](bool, bool) { QTimer::singleShot(0, shoot); });
                     });
    QApplication::exec();
    if (window) {
        window->close(); // its deletion (WA_DeleteOnClose) would be posted to a loop that ended
        delete window.data();
    }
    return code;
}

} // namespace strata
