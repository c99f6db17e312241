#pragma once
// The Gaps dock: why the GPU waited, over the selected range (else the whole trace), for the gaps
// longer than the timeline's threshold: idle time per cause (bar chart), gap lengths on log bins
// coloured by cause (histogram), and a sortable table of every device gap with its cause,
// lateness, blocking call or what it waited on, and the CPU work behind it; a click jumps the
// timeline there and selects the launching call. The idle time before the first and after the
// last GPU op is listed apart, and the checks that would make the figures false are shown first.
// The gap causes are the trace analysis' (core/analysis/gap_causes.h), shared with the timeline;
// the threshold is the workspace's (Analyses::settings()).
#include "workspace/analysis_panel.h"

class QCustomPlot;
class QLabel;
class QTableView;

namespace strata {

class GapsTableModel;

class GapsPanel : public AnalysisPanel {
    Q_OBJECT
public:
    GapsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~GapsPanel() override;

    GapsTableModel* model() const { return model_; }
    QCustomPlot* causeChart() const { return byCause_; }
    QCustomPlot* histogram() const { return histogram_; }
    QString summaryText() const;
    // The same as a click on row `row` of the table (sorted view): the timeline goes there.
    void activateRow(int row);

protected:
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& a) override;

private:
    void exportMenu();

    std::shared_ptr<const GapCauses> causes_; // what the charts show (null: nothing)
    QLabel* summary_;
    QCustomPlot* byCause_;
    QCustomPlot* histogram_;
    QTableView* table_;
    GapsTableModel* model_;
};

} // namespace strata
