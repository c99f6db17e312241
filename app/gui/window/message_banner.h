#pragma once
// A message above the timeline until dismissed (or until what it was about is replaced): an error
// (red: a file that could not be opened, a run's trace that could not be written) or a notice
// (amber: no GPU activity in a recording). The window stays usable under it.
#include <QWidget>

class QLabel;

namespace strata {

class MessageBanner : public QWidget {
    Q_OBJECT
public:
    explicit MessageBanner(QWidget* parent = nullptr);
    void showError(const QString& message);
    void showNotice(const QString& message);
    // What it says while it is shown; empty when hidden.
    QString text() const;

private:
    void showMessage(const QString& message, bool error);
    QLabel* icon_;
    QLabel* text_;
};

} // namespace strata
