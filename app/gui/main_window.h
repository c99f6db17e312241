#pragma once
// The Strata main window: the timeline in the middle, the docks of dock_table.cpp around it, the
// find bar, a toolbar (gap threshold, flows), File (Open, Open Recent, sample, Import Timer
// Sections, Export), drag and drop, and a status bar (slices, load time, warnings). Loading runs on
// a worker thread with progress and Cancel; a load error shows in a banner over the (still usable)
// window.
#include "io/load_result.h"

#include "workspace/navigation.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QPointer>
#include <memory>
#include <optional>

class QAction;
class QKeySequence;
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
class JobRunner;
class LoadJob;
class LoadPreviewView;
struct LoadOutcome;
struct LoadPreview;
class TraceCacheController;
struct RankSetLoad;
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
    // A new window of its own (deleted when closed), shown, opening `path` when one is given:
    // File > New Window, the command line's and a drop's further files, a run's further traces.
    static MainWindow* openWindow(const QString& path = {});
    static MainWindow* openWindow(const QString& path, Options options);

    // Starts loading `path` on a worker thread (cancels a load in progress); `options` carry
    // what the import asked (section names, clock rate).
    void openFile(const QString& path, const LoadOptions& options = {});
    // Loads on the calling thread (screenshot mode); returns false and sets *error on failure.
    bool openFileSync(const QString& path, QString* error = nullptr,
                      const LoadOptions& options = {});
    // Several traces as the ranks of one job, in this window (workspace/rank_set.h,
    // main_window_ranks.cpp): a folder gives the trace files in it; one file alone opens as
    // openFile() does. `add`: joined to the ranks open. Loaded off the GUI thread, on all cores.
    void openFiles(const QStringList& paths, bool add = false);
    // The same on the calling thread (screenshot mode, tests): false and *error when nothing
    // loaded; the files that did not load are said in the banner.
    bool openFilesSync(const QStringList& paths, QString* error = nullptr);
    void showOpenRanksDialog(bool add);
    // Two runs compared in this window (workspace/trace_comparison.h, main_window_compare.cpp):
    // both loaded off the GUI thread, then the candidate's tracks under the baseline's and the
    // Compare dock. File > Compare With… takes the trace open as the baseline.
    void openComparison(const QString& baseline, const QString& candidate);
    bool openComparisonSync(const QString& baseline, const QString& candidate,
                            QString* error = nullptr);
    void showCompareDialog();
    // Two ranges of the trace open (trace time), compared as a baseline and a candidate: Edit >
    // Set Selected Range as Baseline, then Edit > Compare Selected Range with the Baseline.
    void compareRanges(TimeRange baseline, TimeRange candidate);
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
    // A dock's panel (app/gui/dock_table.cpp lists them), by type.
    template <typename Panel> Panel* panel() const { return findChild<Panel*>(); }
    DetailsPanel* details() const { return details_; }
    RangePanel* rangePanel() const { return range_; }
    WarningsPanel* warningsPanel() const { return warnings_; }
    FindBar* findBar() const { return findBar_; }
    SectionsPanel* sectionsPanel() const { return sections_; }
    TraceInfoPanel* traceInfoPanel() const;
    // The trace cache's settings and background writes (trace_cache_controller.h).
    TraceCacheController* traceCache() const { return cache_; }
    // The first picture shown while a large trace loads (on the loading page).
    LoadPreviewView* loadPreview() const { return previewView_; }
    bool loadedFromCache() const { return fromCache_; }
    GapsPanel* gapsPanel() const;
    StatsPanel* statsPanel() const;
    CallTreePanel* callTreePanel() const;
    // Timer sections (a .npy, .csv or .json timer array, a .sections file) into the current
    // trace, or as a trace of their own when none is open (openFileSync: every format is
    // recognised by content), the Sections dock raised; false and *error (also shown) when the
    // file cannot be read.
    bool importSectionsFile(const QString& path, QString* error, const LoadOptions& options = {});
    // File > Import Timer Sections…: a file dialog, the names and clock rate
    // (SectionsImportDialog, remembered per file), then openFile().
    void importSectionsInteractively();
    ProfileController* profile() const { return profile_; }
    ExportActions* exportActions() const { return exports_; }
    QWidget* errorBanner() const { return banner_; }
    QString errorText() const;
    QString statusText() const; // slices · load time · warnings
    QToolButton* warningsButton() const { return warningsButton_; }
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
    void createActions(); // the menus and the toolbar (main_window_actions.cpp)
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createSettingsMenu();
    void createToolBar();
    template <typename Slot>
    QAction* makeAction(const char* name, const QString& text, const QKeySequence& key, Slot slot);
    // A checkable View option applied to the timeline now and remembered between runs.
    QAction* makeTimelineOption(const char* name, const QString& text, const QString& settingsKey,
                                bool byDefault, void (TimelineView::*set)(bool),
                                bool (TimelineView::*get)() const, const QString& tip);
    void createDocks();
    void createStatusBar();
    QWidget* createEmptyPage();
    QWidget* createLoadingPage();
    void onLoadFinished(LoadJob* job, const LoadOutcome& outcome, bool cancelled, qint64 ms);
    // A load's outcome into the workspace: a new trace, or the current one amended.
    void install(const LoadOutcome& outcome, const QString& path, qint64 ms);
    void setTrace(std::shared_ptr<const Trace> trace, const QString& path, qint64 loadMs,
                  const QString& format);
    // The jobs that load a set of ranks or a comparison, and what follows their merges.
    void createSetJobs();
    // A set's load into the workspace's ranks (main_window_ranks.cpp).
    void installRanks(RankSetLoad loaded, bool add);
    void onRanksMerged();
    // A set of digests: the report page in the middle, the Ranks dock on its Steps map.
    void showDigestSet();
    // Rank `index`'s own trace in a new window, or said when it is not here.
    void openRankTrace(size_t index);
    void installComparison(const std::vector<LoadResult>& results, const QStringList& paths,
                           qint64 ms);
    void onComparisonMerged();
    void showBanner(const QString& message, bool error);
    void hideError();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateStatus();
    static QDockWidget* dockOf(QWidget* panel);
    // The window is the timeline's (main_window_docks.cpp): a dock opens when it has something
    // to show (a selection, a range, timer sections, warnings on what the figures mean), closes
    // again when what opened it goes, and the layout the user makes is remembered.
    void showDock(QWidget* panel);              // opened (and raised) for what it now shows
    void hideDockIfOpenedForIt(QWidget* panel); // closed when it was opened for that alone
    void closeEmptyDocks();                     // on a new trace: those with nothing to show
    void restoreLayout();
    void saveLayout() const;

    Options options_;
    Workspace* workspace_;
    Navigation* nav_;
    QPointer<LoadJob> job_;
    JobRunner* setJob_ = nullptr;            // a set of ranks loading
    JobRunner* compareJob_ = nullptr;        // a baseline and a candidate loading
    std::optional<TimeRange> baselineRange_; // Edit > Set Selected Range as Baseline

    QStackedWidget* stack_ = nullptr;
    QWidget* emptyPage_ = nullptr;
    // Shown instead of the welcome page as soon as a file starts loading (name, progress, Cancel).
    QWidget* loadingPage_ = nullptr;
    QLabel* loadingLabel_ = nullptr;
    QProgressBar* loadingBar_ = nullptr;
    LoadPreviewView* previewView_ = nullptr; // what has been read so far, over the label
    TraceCacheController* cache_ = nullptr;
    bool fromCache_ = false; // the trace shown was read from the trace cache
    // A set of ranks known by their digests (no timeline): what it is and what to do.
    QLabel* digestPage_ = nullptr;
    TimelineView* timeline_ = nullptr;
    DetailsPanel* details_ = nullptr;
    RangePanel* range_ = nullptr;
    WarningsPanel* warnings_ = nullptr;
    SectionsPanel* sections_ = nullptr;
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
    QLabel* spanLabel_ = nullptr;   // the trace's span and what it holds
    QLabel* cursorLabel_ = nullptr; // the time under the mouse on the timeline
    QToolButton* warningsButton_ = nullptr;
    QLabel* rangeLabel_ = nullptr;
    QStringList recent_;
    QList<QDockWidget*> openedForContent_; // opened by showDock(), not by the user
};

} // namespace strata
