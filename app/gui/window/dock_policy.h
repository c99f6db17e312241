#pragma once
// The window's docks (dock_table.h) and when they open. The window is the timeline's (issue 28):
// on a new trace the docks with nothing to show are closed, so the tracks get most of the window;
// Details opens on a selection and closes when it is cleared, Range on a selected range, Sections
// with timer sections, and the Warnings list (otherwise a count in the status bar that opens it)
// only for warnings on what the figures mean. What the user arranges (positions, sizes, tabs, the
// analysis docks left open) is remembered between runs.
#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace strata {

class Navigation;
class Workspace;

class DockPolicy : public QObject {
    Q_OBJECT
public:
    // Makes the docks of dock_table.h in `window`, hidden until they have something to show;
    // `remember`: the layout is saved as it changes (QSettings) and restoreLayout() restores it.
    DockPolicy(QMainWindow* window, Workspace* workspace, Navigation* nav, bool remember);
    // The dock a panel lies in.
    static QDockWidget* dockOf(QWidget* panel);
    void showDock(QWidget* panel);              // opened (and raised) for what it now shows
    void hideDockIfOpenedForIt(QWidget* panel); // closed when it was opened for that alone
    void closeEmptyDocks();                     // on a new trace: those with nothing to show
    // The window's geometry and docks as the user left them (once every dock exists).
    void restoreLayout();
    void saveLayout() const;

signals:
    void warningsChanged(); // the Warnings panel's count

private:
    QMainWindow* window_;
    Workspace* workspace_;
    bool remember_;
    QList<QDockWidget*> openedForContent_; // opened by showDock(), not by the user
};

} // namespace strata
