#pragma once
// The window's menus and toolbar: File (Open, Open Folder as Ranks, Add Ranks, Compare With, Open
// Recent, the sample, Import Timer Sections, Export, New Window, Close, Quit), Edit (ranges
// compared, Find), View (theme, zoom, flows, the timeline's options, the docks), Profile
// (actions/profile_controller.h), Settings (the trace cache) and Help; the toolbar's Open, Zoom
// to All, Show All Flows and the gap threshold every view follows. Every way of opening makes an
// OpenRequest for the window's LoadController.
#include "workspace/navigation.h"

#include <QKeySequence>
#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QMenu;
class QSpinBox;

namespace strata {

class ExportActions;
class MainWindow;
class ProfileController;
class RecentFiles;
class TimelineView;

class WindowMenus : public QObject {
    Q_OBJECT
public:
    // `remember`: the View options and the gap threshold are kept in the settings.
    WindowMenus(MainWindow* window, bool remember);
    ExportActions* exports() const { return exports_; }
    ProfileController* profile() const { return profile_; }
    RecentFiles* recent() const { return recent_; }
    QSpinBox* gapThresholdBox() const { return gapBox_; }

private:
    QAction* makeAction(const char* name, const QString& text, const QKeySequence& key,
                        std::function<void(bool)> slot);
    // A checkable View option applied to the timeline now and remembered between runs.
    QAction* makeTimelineOption(const char* name, const QString& text, const QString& settingsKey,
                                bool byDefault, void (TimelineView::*set)(bool),
                                bool (TimelineView::*get)() const, const QString& tip);
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createNavigationActions(QMenu* view); // Home, F, W/S, A/D: the timeline's keys
    void createHelpMenu();
    void createToolBar();
    // Two ranges of the trace shown compared (Edit ▸ Compare Selected Range with the Baseline).
    void compareRanges(TimeRange baseline, TimeRange candidate);

    MainWindow* window_;
    bool remember_;
    std::optional<TimeRange> baselineRange_; // Edit > Set Selected Range as Baseline
    ExportActions* exports_ = nullptr;
    ProfileController* profile_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QSpinBox* gapBox_ = nullptr;
};

} // namespace strata
