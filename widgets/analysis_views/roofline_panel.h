#pragma once
// The Roofline dock: the kernels measured with per-kernel counters (`strata-cli record
// --kernel-metrics`, CUPTI's range profiler) on Nsight Compute's roofline, over the selected
// range (else the whole trace). A log-log chart of achieved FLOP/s against arithmetic intensity
// (FLOP per DRAM byte) under each device's ceilings (DRAM bandwidth, FP64/FP32/FP16 peaks, from
// the same counters), one point per kernel name and device; and a table of every such kernel
// with its FLOPs, bytes, intensity, share of the roof and whether it is memory- or
// compute-bound. A click on a row marks its point and selects its longest launch. The numbers
// are the analysis' (core/analysis/ops/roofline.h), the same strata-cli roofline prints.
#include "workspace/analysis_panel.h"

class QCustomPlot;
class QLabel;
class QTableView;

namespace strata {

struct Roofline;

class RooflinePanel : public AnalysisPanel {
    Q_OBJECT
public:
    RooflinePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~RooflinePanel() override;

    QCustomPlot* chart() const { return chart_; }
    QAbstractItemModel* model() const;
    QString summaryText() const;
    // The same as a click on row `row` of the table (sorted view).
    void activateRow(int row);

protected:
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& a) override;

private:
    struct Rows;
    void draw(int marked);
    std::shared_ptr<const Roofline> roofline_; // what is shown (null: nothing)
    std::unique_ptr<Rows> rows_;
    QLabel* summary_;
    QCustomPlot* chart_;
    QTableView* table_;
};

} // namespace strata
