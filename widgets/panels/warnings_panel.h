#pragma once
// The "Warnings" dock: every warning a load produced (skipped events, truncation, repairs),
// one per row, never hidden.
#include <QWidget>

class QListWidget;
class QLabel;

namespace strata {

class WarningsPanel : public QWidget {
    Q_OBJECT
public:
    explicit WarningsPanel(QWidget* parent = nullptr);
    void setWarnings(const QStringList& warnings);
    int count() const;
    QStringList warnings() const;
    QListWidget* list() const { return list_; }

private:
    QListWidget* list_;
    QLabel* header_;
};

} // namespace strata
