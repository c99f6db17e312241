#include "modes/quit_on_signal.h"

#include "actions/profile_controller.h"
#include "window/main_window.h"

#include <QApplication>
#include <QSocketNotifier>
#include <QVariant>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace strata {
namespace {

constexpr int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
int gPipe[2] = {-1, -1};
int gQuitSignal = 0;
constexpr const char* kWatched = "strataQuitWatched"; // a ProfileController property

void onSignal(int sig) {
    const int saved = errno;
    const unsigned char byte = static_cast<unsigned char>(sig);
    (void)!write(gPipe[1], &byte, 1); // a full pipe already holds a request: nothing is lost
    errno = saved;
}

QList<MainWindow*> mainWindows() {
    QList<MainWindow*> out;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* m = qobject_cast<MainWindow*>(w)) out << m;
    return out;
}

// Once no window runs a program any more: every window closed, the event loops left.
void exitWhenStopped() {
    for (MainWindow* w : mainWindows())
        if (w->profile()->running()) return;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->isVisible()) w->close();
    QCoreApplication::exit(128 + gQuitSignal);
}

void quitRequested(int sig) {
    if (gQuitSignal == 0) gQuitSignal = sig;
    for (MainWindow* w : mainWindows()) {
        ProfileController* p = w->profile();
        if (p->running() && !p->property(kWatched).toBool()) {
            p->setProperty(kWatched, true);
            // Queued: the run's files (its record, its console log) are written before.
            QObject::connect(p, &ProfileController::runFinished, qApp, &exitWhenStopped,
                             Qt::QueuedConnection);
        }
        p->quit();
    }
    exitWhenStopped();
}

} // namespace

bool quitOnSignals() {
    if (gPipe[0] >= 0) return true;
    if (pipe2(gPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        std::fprintf(stderr, "strata: cannot watch for SIGTERM/SIGINT/SIGHUP: %s\n",
                     std::strerror(errno));
        return false;
    }
    auto* notifier = new QSocketNotifier(gPipe[0], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [] {
        unsigned char sig = 0;
        while (read(gPipe[0], &sig, 1) == 1) quitRequested(sig);
    });
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int s : kSignals) {
        // One ignored when strata started stays ignored (nohup's SIGHUP, SIGINT of `strata &`).
        struct sigaction old {};
        if (sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(s, &sa, nullptr);
    }
    return true;
}

int quitSignal() {
    return gQuitSignal;
}

} // namespace strata
