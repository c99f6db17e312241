#pragma once
// What the parts that act on a window (File ▸ Export: actions/export_actions.h; the Profile menu
// and the Console: actions/profile_controller.h) use of it, instead of the whole MainWindow: its
// workspace and navigation, its loader, its messages, and a new window of its kind.
#include <QString>

class QMainWindow;

namespace strata {

class LoadController;
class Navigation;
class Workspace;

class WindowContext {
public:
    virtual ~WindowContext() = default;
    virtual QMainWindow* window() = 0; // dialogs' parent; its menu bar, actions and docks
    virtual Workspace* workspace() const = 0;
    virtual Navigation* navigation() const = 0;
    virtual LoadController* loader() const = 0;
    virtual QString currentFile() const = 0; // the file (or folder) of what is shown
    virtual void showError(const QString& message) = 0;
    virtual void showNotice(const QString& message) = 0;
    virtual void say(const QString& message,
                     int ms) = 0; // the status bar, for `ms` (0: until next)
    // A new window of the same kind, shown, deleted when closed.
    virtual WindowContext* newWindow() = 0;
};

} // namespace strata
