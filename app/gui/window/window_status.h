#pragma once
// The window's status bar: a load's progress and Cancel (left), and what the trace shown holds
// (right): the clock notice, the selected range, the time under the mouse, the span, the slices,
// instants, flows and counter samples, how long it took to open (and whether from the trace
// cache), and the warnings' count, which opens the Warnings dock.
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QToolButton;

namespace strata {

class Navigation;
class Workspace;

class WindowStatus : public QObject {
    Q_OBJECT
public:
    WindowStatus(QStatusBar* bar, Workspace* workspace, Navigation* nav);
    // A load under way: the progress bar (busy when `fraction` < 0) and Cancel.
    void showProgress(double fraction);
    void hideProgress();
    QProgressBar* progressBar() const { return progress_; }
    // The right-hand labels for the trace shown, its load time, whether it came from the trace
    // cache, and `warnings` warnings.
    void update(bool fromCache, int warnings);
    void setCursorTime(const QString& text);
    QToolButton* warningsButton() const { return warningsButton_; }
    // cursor · span · slices · load time · warnings, as one line.
    QString text() const;

signals:
    void cancelRequested();
    void warningsRequested();

private:
    Workspace* workspace_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* slices_;
    QLabel* loadTime_;
    QLabel* span_;
    QLabel* cursor_;
    QLabel* range_;
    QToolButton* warningsButton_;
};

} // namespace strata
