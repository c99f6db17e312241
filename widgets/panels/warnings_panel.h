#pragma once
// The "Warnings" dock: every warning a load produced (skipped events, truncation, repairs),
// one per row, never hidden.
#include "workspace/trace_panel.h"

class QListWidget;
class QLabel;

namespace strata {

class WarningsPanel : public TracePanel {
    Q_OBJECT
public:
    WarningsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    void setWarnings(const QStringList& warnings);
    int count() const;
    QStringList warnings() const;
    QListWidget* list() const { return list_; }

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;

private:
    QListWidget* list_;
    QLabel* header_;
};

} // namespace strata
