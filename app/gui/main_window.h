#pragma once
// The Strata main window: the timeline in the middle, Details / Range / Warnings docks, the find
// bar, a toolbar (gap threshold, flows), File (Open, Open Recent, sample), drag and drop, and a
// status bar (slices, load time, warnings). Loading runs on a worker thread with progress and
// Cancel; a load error shows in a banner over the (still usable) window.
#include "io/load_result.h"

#include "workspace/navigation.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QPointer>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace strata {

class DetailsPanel;
class ExportActions;
class FindBar;
class ProfileController;
class TraceInfoPanel;
class SectionsPanel;
class GapsPanel;
class StatsPanel;
class CallTreePanel;
class LoadJob;
class RangePanel;
class TimelineView;
class WarningsPanel;
struct ShortcutEntry;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        bool restoreSettings = true; // geometry/state and recent files from QSettings
    };
    explicit MainWindow(QWidget* parent = nullptr) : MainWindow(Options{}, parent) {}
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading `path` on a worker thread (cancels a load in progress).
    void openFile(const QString& path);
    // Loads on the calling thread (screenshot mode); returns false and sets *error on failure.
    bool openFileSync(const QString& path, QString* error = nullptr);
    void openSample();
    void cancelLoad();
    bool isLoading() const;

    Workspace* workspace() const { return workspace_; }
    Navigation* navigation() const { return nav_; }
    std::shared_ptr<const Trace> trace() const { return workspace_->current(); }
    QString currentFile() const;
    qint64 loadTimeMs() const;
    QStringList recentFiles() const;
    QList<ShortcutEntry> shortcuts() const;

    // Parts, for tests and screenshot mode.
    TimelineView* timeline() const { return timeline_; }
    DetailsPanel* details() const { return details_; }
    RangePanel* rangePanel() const { return range_; }
    WarningsPanel* warningsPanel() const { return warnings_; }
    FindBar* findBar() const { return findBar_; }
    TraceInfoPanel* traceInfoPanel() const { return traceInfo_; }
    SectionsPanel* sectionsPanel() const { return sections_; }
    GapsPanel* gapsPanel() const { return gaps_; }
    StatsPanel* statsPanel() const { return stats_; }
    CallTreePanel* callTreePanel() const { return callTree_; }
    // Timer sections (.npy, .csv, .sections; File > Import Timer Sections… for .json too) into
    // the Sections dock, raised; false and *error (also shown) when the file cannot be read.
    bool importSectionsFile(const QString& path, QString* error);
    ProfileController* profile() const { return profile_; }
    ExportActions* exportActions() const { return exports_; }
    QWidget* errorBanner() const { return banner_; }
    QString errorText() const;
    QString statusText() const; // slices · load time · warnings
    QProgressBar* progressBar() const { return progress_; }
    QWidget* currentPage() const; // the welcome page, the loading page or the timeline
    QSpinBox* gapThresholdBox() const { return gapBox_; }
    QAction* action(const QString& objectName) const;

    // A message above the timeline until dismissed: an error (red) or a notice (amber).
    void showError(const QString& message);
    void showNotice(const QString& message);

signals:
    // Emitted when a load ends: ok, failed (error banner shown) or cancelled.
    void loadFinished(bool ok, bool cancelled);

public slots:
    void showOpenDialog();
    void showShortcutHelp();

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    QWidget* createEmptyPage();
    QWidget* createLoadingPage();
    void onLoadFinished(LoadJob* job, const LoadResult& result, bool cancelled, qint64 ms);
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path, qint64 loadMs);
    void showBanner(const QString& message, bool error);
    void hideError();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateStatus();
    // A dock showing a TracePanel of type Panel about the current trace (one line per dock).
    template <typename Panel>
    Panel* addTracePanel(const QString& title, const char* objectName, Qt::DockWidgetArea area);
    static QDockWidget* dockOf(QWidget* panel);

    Options options_;
    Workspace* workspace_;
    Navigation* nav_;
    QPointer<LoadJob> job_;

    QStackedWidget* stack_ = nullptr;
    QWidget* emptyPage_ = nullptr;
    // Shown instead of the welcome page as soon as a file starts loading (name, progress, Cancel).
    QWidget* loadingPage_ = nullptr;
    QLabel* loadingLabel_ = nullptr;
    QProgressBar* loadingBar_ = nullptr;
    TimelineView* timeline_ = nullptr;
    DetailsPanel* details_ = nullptr;
    RangePanel* range_ = nullptr;
    WarningsPanel* warnings_ = nullptr;
    TraceInfoPanel* traceInfo_ = nullptr;
    SectionsPanel* sections_ = nullptr;
    GapsPanel* gaps_ = nullptr;
    StatsPanel* stats_ = nullptr;
    CallTreePanel* callTree_ = nullptr;
    ProfileController* profile_ = nullptr;
    ExportActions* exports_ = nullptr;
    FindBar* findBar_ = nullptr;
    QWidget* banner_ = nullptr;
    QLabel* bannerText_ = nullptr;
    QLabel* bannerIcon_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QSpinBox* gapBox_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QLabel* slicesLabel_ = nullptr;
    QLabel* loadTimeLabel_ = nullptr;
    QToolButton* warningsButton_ = nullptr;
    QLabel* rangeLabel_ = nullptr;
    QStringList recent_;
};

template <typename Panel>
Panel* MainWindow::addTracePanel(const QString& title, const char* objectName,
                                 Qt::DockWidgetArea area) {
    auto* panel = new Panel(workspace_, nav_, this);
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(QString::fromLatin1(objectName));
    dock->setWidget(panel);
    addDockWidget(area, dock);
    return panel;
}

} // namespace strata
