#include "window/recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace strata {

namespace {
constexpr int kMaxRecent = 10;
const char* const kKey = "recentFiles";
} // namespace

RecentFiles::RecentFiles(QMenu* menu, bool remember, std::function<void(const QString&)> open)
    : QObject(menu), menu_(menu), remember_(remember), open_(std::move(open)) {
    if (remember_) files_ = QSettings().value(QLatin1String(kKey)).toStringList();
    rebuild();
}

void RecentFiles::add(const QString& path) {
    files_.removeAll(path);
    files_.prepend(path);
    while (files_.size() > kMaxRecent) files_.removeLast();
    if (remember_) QSettings().setValue(QLatin1String(kKey), files_);
    rebuild();
}

void RecentFiles::rebuild() {
    menu_->clear();
    for (const QString& path : files_) {
        QAction* a = menu_->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { open_(path); });
    }
    if (!files_.isEmpty()) {
        menu_->addSeparator();
        menu_->addAction(tr("Clear List"), this, [this] {
            files_.clear();
            if (remember_) QSettings().remove(QLatin1String(kKey));
            rebuild();
        });
    }
    menu_->setEnabled(!files_.isEmpty());
}

} // namespace strata
