#pragma once
// The pages in the middle of the window, one at a time: the welcome page (Open, the sample), the
// loading page (what is loading, its progress, Cancel, and the first picture of what has been
// read: timeline/load_preview_view.h), the report of a set of ranks known by their digests (no
// timeline to show), and the timeline.
#include "io/load_preview.h"

#include <QStackedWidget>

#include <memory>

class QLabel;
class QProgressBar;

namespace strata {

class LoadPreviewView;

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
    void setPreview(std::shared_ptr<const LoadPreview> preview);
    void clearPreview();
    LoadPreviewView* loadPreview() const { return preview_; }
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
    LoadPreviewView* preview_ = nullptr;
};

} // namespace strata
