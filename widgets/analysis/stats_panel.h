#pragma once
// The Statistics dock (what users miss from the TensorBoard profiler plugin), over the selected
// range or the whole trace, computed off the GUI thread (core/analysis/op_stats.h, advisor.h):
//   Overview  kernel, copy and set time by category (chart) and GPU busy/idle per device and
//             per step;
//   Kernels   per kernel name (optionally per launching CPU op / NVTX range): count, total, mean,
//             min, max, median, p95, share, launch configs, launch latency, call duration; the
//             selected kernel's duration histogram below;
//   CPU Ops   count, total, self, and the GPU time of what each launched;
//   Copies    by kind and pageable: bytes, time, GB/s;
//   Advisor   the findings with their evidence; a click shows where in the timeline.
// Every table exports CSV, every chart PNG/SVG/PDF.
#include "analysis/advisor.h"
#include "analysis/gap_causes.h"
#include "analysis/op_stats.h"
#include "workspace/trace_panel.h"

class QAbstractItemModel;
class QCheckBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata {

class JobRunner;
template <typename Row> class RowTableModel;

struct StatsViewData {
    OpStats ops;
    GapCauses gaps;
    Advice advice;
};

class StatsPanel : public TracePanel {
    Q_OBJECT
public:
    enum Tab { OverviewTab, KernelsTab, CpuOpsTab, CopiesTab, AdvisorTab };
    StatsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~StatsPanel() override;

    void waitForJobs();
    void showTab(Tab t);
    void setGroupByOp(bool on);
    void selectKernelRow(int row); // the duration histogram shows that kernel (source row)
    const StatsViewData* view() const { return data_.get(); }
    QAbstractItemModel* kernelsModel() const;
    QAbstractItemModel* cpuOpsModel() const;
    QAbstractItemModel* copiesModel() const;
    QAbstractItemModel* findingsModel() const;
    QAbstractItemModel* devicesModel() const;
    QCustomPlot* categoryChart() const { return categories_; }
    QCustomPlot* histogramChart() const { return histogram_; }

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override;

private:
    struct Models;
    void compute();
    void show(std::shared_ptr<const StatsViewData> d);
    void exportMenu();

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const StatsViewData> data_;
    std::optional<TimeRange> range_;
    bool groupByOp_ = false;
    JobRunner* jobs_;
    QLabel* summary_;
    QTabWidget* tabs_;
    QCheckBox* group_;
    QCustomPlot* categories_;
    QCustomPlot* histogram_;
    QLabel* findingDetail_;
    std::unique_ptr<Models> m_;
    std::vector<QTableView*> tables_;
};

} // namespace strata
