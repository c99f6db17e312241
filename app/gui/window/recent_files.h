#pragma once
// File > Open Recent: the last ten traces opened (not the bundled sample), remembered between
// runs, newest first; choosing one opens it.
#include <QObject>
#include <QStringList>

#include <functional>

class QMenu;

namespace strata {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    // `remember`: kept in the settings; `open`: what choosing one does.
    RecentFiles(QMenu* menu, bool remember, std::function<void(const QString&)> open);
    void add(const QString& path);
    const QStringList& files() const { return files_; }

private:
    void rebuild();
    QMenu* menu_;
    bool remember_;
    std::function<void(const QString&)> open_;
    QStringList files_;
};

} // namespace strata
