#pragma once
// The Strata main window: a shell around the parts that do the work. In the middle its pages
// (window_pages.h: welcome, loading, the timeline, a digest set's report) under the message banner
// (message_banner.h) and over the find bar; the docks and when they open (dock_policy.h); the
// status bar (window_status.h); the menus and the toolbar (window_menus.h). Everything it opens
// is an OpenRequest for its LoadController (open/load_controller.h), and what it shows is its
// Workspace's (workspace/workspace.h: one trace, the ranks of a job, a comparison): the shell
// follows it with the page, the title and the docks.
#include "open/load_controller.h"
#include "window/window_context.h"
#include "workspace/navigation.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QSpinBox;

namespace strata {

class DockPolicy;
class ExportActions;
class FindBar;
class MessageBanner;
class ProfileController;
class TimelineView;
class TraceCacheController;
class WindowMenus;
class WindowPages;
class WindowStatus;
struct ShortcutEntry;

class MainWindow : public QMainWindow, public WindowContext {
    Q_OBJECT
public:
    struct Options {
        bool restoreSettings = true; // geometry/state and recent files from QSettings
    };
    explicit MainWindow(QWidget* parent = nullptr) : MainWindow(Options{}, parent) {}
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    ~MainWindow() override;
    // A new window of its own (deleted when closed), shown, opening `request` when it names
    // files: File > New Window, the command line's further files, a rank's own trace.
    static MainWindow* openWindow(const OpenRequest& request = {});
    static MainWindow* openWindow(const OpenRequest& request, Options options);

    // Opening anything: one trace, timer sections, the ranks of a job, a comparison.
    void open(const OpenRequest& request) { loader_->open(request); }
    bool openSync(const OpenRequest& request, QString* error = nullptr) {
        return loader_->openSync(request, error);
    }
    void openSample();

    // WindowContext: what the Export and Profile parts use of the window.
    QMainWindow* window() override { return this; }
    Workspace* workspace() const override { return workspace_; }
    Navigation* navigation() const override { return nav_; }
    LoadController* loader() const override { return loader_; }
    QString currentFile() const override;
    void showError(const QString& message) override;
    void showNotice(const QString& message) override;
    void say(const QString& message, int ms) override;
    WindowContext* newWindow() override { return openWindow({}, options_); }

    // The trace opened; null while a load's first frames are shown (Workspace::previewing).
    std::shared_ptr<const Trace> trace() const {
        return workspace_->previewing() ? nullptr : workspace_->current();
    }
    QStringList recentFiles() const;
    QList<ShortcutEntry> shortcuts() const;

    // Parts, for the menus, screenshot mode and tests.
    TimelineView* timeline() const { return timeline_; }
    // A dock's panel (window/dock_table.h lists them), by type.
    template <typename Panel> Panel* panel() const { return findChild<Panel*>(); }
    FindBar* findBar() const { return findBar_; }
    WindowPages* pages() const { return pages_; }
    MessageBanner* banner() const { return banner_; }
    WindowStatus* status() const { return status_; }
    DockPolicy* docks() const { return docks_; }
    TraceCacheController* traceCache() const { return cache_; }
    ProfileController* profile() const;
    ExportActions* exportActions() const;
    QSpinBox* gapThresholdBox() const;
    QAction* action(const QString& objectName) const;
    QString errorText() const;  // the banner's, while shown
    QString statusText() const; // cursor · span · slices · load time · warnings

signals:
    // A load ended: ok, failed (the banner says why) or cancelled (LoadController::finished).
    void loadFinished(bool ok, bool cancelled);

public slots:
    void showShortcutHelp();

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void connectParts();
    // What the workspace shows, followed: the page, the title, the docks, the status bar.
    void onCurrentChanged(const std::shared_ptr<const Trace>& trace);
    void onShownChanged(Shown shown);
    void onOpened(const OpenRequest& request, bool sections);
    void updateTitle();
    void updateStatus();

    Options options_;
    Workspace* workspace_;
    Navigation* nav_;
    TimelineView* timeline_ = nullptr;
    FindBar* findBar_ = nullptr;
    WindowPages* pages_ = nullptr;
    MessageBanner* banner_ = nullptr;
    WindowStatus* status_ = nullptr;
    DockPolicy* docks_ = nullptr;
    TraceCacheController* cache_ = nullptr;
    LoadController* loader_ = nullptr;
    WindowMenus* menus_ = nullptr;
};

} // namespace strata
