#pragma once
// The Gaps dock: why the GPU waited, over the selected range (else the whole trace), for the gaps
// longer than the timeline's threshold: idle time per cause (bar chart), gap lengths on log bins
// coloured by cause (histogram), and a sortable table of every device gap with its cause,
// lateness, blocking call or what it waited on, and the CPU work behind it; a click jumps the
// timeline there and selects the launching call. The idle time before the first and after the
// last GPU op is listed apart, and the checks that would make the figures false are shown first.
// Computed off the GUI thread (core/analysis/gap_causes.h).
#include "analysis/gap_causes.h"
#include "workspace/trace_panel.h"

class QCustomPlot;
class QLabel;
class QTableView;

namespace strata {

class GapsTableModel;
class JobRunner;

class GapsPanel : public TracePanel {
    Q_OBJECT
public:
    GapsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~GapsPanel() override;

    void setThreshold(TimeNs t); // the timeline's "Launch gaps ≥"
    void waitForJobs();          // screenshots, tests
    GapsTableModel* model() const { return model_; }
    QCustomPlot* causeChart() const { return byCause_; }
    QCustomPlot* histogram() const { return histogram_; }
    QString summaryText() const;
    // The same as a click on row `row` of the table (sorted view): the timeline goes there.
    void activateRow(int row);

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override;

private:
    void compute();
    void show(std::shared_ptr<const GapCauses> g);
    void exportMenu();

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GapCauses> gaps_;
    std::optional<TimeRange> range_;
    TimeNs threshold_ = 10'000;
    JobRunner* jobs_;
    QLabel* summary_;
    QCustomPlot* byCause_;
    QCustomPlot* histogram_;
    QTableView* table_;
    GapsTableModel* model_;
};

} // namespace strata
