#pragma once
// The "?" dialog: every keyboard shortcut and mouse gesture, in one table.
#include <QDialog>
#include <QList>
#include <QPair>

class QTableWidget;

namespace strata {

struct ShortcutEntry {
    QString keys;
    QString action;
    QString group; // "Timeline", "File", ...
};

class ShortcutHelpDialog : public QDialog {
    Q_OBJECT
public:
    // `legendHtml`: what the timeline's colours mean (timeline/timeline_legend.h), shown below.
    explicit ShortcutHelpDialog(const QList<ShortcutEntry>& entries,
                                const QString& legendHtml = QString(), QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
};

// Timeline keys and mouse gestures (handled inside TimelineView).
QList<ShortcutEntry> timelineShortcuts();

} // namespace strata
