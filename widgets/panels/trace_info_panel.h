#pragma once
// The Trace Info dock: what the current trace says about itself (record/trace_info.h, the same
// rows `strata-cli info` prints): what was run to make it — command, working directory,
// environment, exit, start, duration, host — its top-level metadata (deviceProperties,
// distributedInfo, schemaVersion...), and, above them, why it holds no GPU activity when it
// holds none.
#include "workspace/trace_panel.h"

class QLabel;
class QTableWidget;

namespace strata {

class TraceInfoPanel : public TracePanel {
    Q_OBJECT
public:
    TraceInfoPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    // The value of the row `label` ("Command", "Exit", "schemaVersion"), or a null string.
    QString value(const QString& label) const;
    QString notice() const; // the no-GPU explanation shown, or empty
    int rowCount() const;

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;

private:
    QLabel* notice_;
    QTableWidget* table_;
};

} // namespace strata
