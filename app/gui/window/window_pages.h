#pragma once
// The pages in the middle of the window, one at a time: the welcome page (Open, the sample), the
// loading page (what is loading, its progress, Cancel; a large trace's first frames, what has been
// read, are the timeline's: Workspace::showPreview), the report of a set of ranks known by their
// digests (no timeline to show), and the timeline.
#include <QStackedWidget>

class QLabel;
class QProgressBar;

namespace strata {

class WindowPages : public QStackedWidget {
    Q_OBJECT
public:
    enum class Page { Welcome, Loading, Report, Timeline };
    WindowPages(QWidget* timeline, QWidget* parent);
    void show(Page page);
    bool showing(Page page) const;
    // Nothing but the welcome or the loading page is on screen (a load may take the middle).
    bool idle() const { return showing(Page::Welcome) || showing(Page::Loading); }

    // The loading page, shown at once when the window is idle().
    void startLoading(const QString& what, const QString& where);
    void setProgress(double fraction);
    // The digests' report, shown.
    void showReport(const QString& html);

signals:
    void openRequested();
    void sampleRequested();
    void cancelRequested();

private:
    QWidget* makeWelcome();
    QWidget* makeLoading();
    QWidget* welcome_ = nullptr;
    QWidget* loading_ = nullptr;
    QLabel* report_;
    QWidget* timeline_;
    QLabel* loadingLabel_ = nullptr;
    QProgressBar* loadingBar_ = nullptr;
};

} // namespace strata
