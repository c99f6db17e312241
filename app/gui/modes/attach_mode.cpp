#include "modes/attach_mode.h"

#include "actions/profile_controller.h"
#include "launch/attach_dialog.h"
#include "modes/screenshot.h"
#include "window/main_window.h"

#include <QApplication>
#include <QPointer>
#include <QTimer>

namespace strata {

int runAttachMode(const QString& remote, const QStringList& sshOptions, const QString& screenshot) {
    MainWindow::Options wo;
    wo.restoreSettings = screenshot.isEmpty();
    auto* w = new MainWindow(wo);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    const QPointer<MainWindow> window(w);
    AttachDialog* dialog =
        w->profile()->showAttachDialog(remote, sshOptions.join(QLatin1Char(' ')));
    if (screenshot.isEmpty()) {
        const int code = QApplication::exec();
        delete window.data();
        return code;
    }
    int code = 1;
    const auto shoot = [&code, dialog, screenshot] {
        settleEvents(200);
        ScreenshotOptions o;
        o.output = screenshot;
        code = savePng(dialog, o) ? 0 : 1;
        QApplication::exit(code);
    };
    QObject::connect(dialog, &AttachDialog::listed, dialog,
                     [shoot](int) { QTimer::singleShot(0, shoot); });
    QObject::connect(dialog, &AttachDialog::requestDone, dialog,
                     [shoot](bool ok, const QString&, qint64) {
                         if (!ok) QTimer::singleShot(0, shoot); // the error is the picture
                     });
    QApplication::exec();
    if (window) {
        window->close();
        delete window.data();
    }
    return code;
}

} // namespace strata
