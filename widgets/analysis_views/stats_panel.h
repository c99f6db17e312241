#pragma once
// The Statistics dock (what users miss from the TensorBoard profiler plugin), over the selected
// range or the whole trace, computed off the GUI thread (core/analysis/op_stats.h, advisor.h):
//   Overview  kernel, copy and set time by category (chart) and GPU busy/idle per device and
//             per step;
//   GPU Time  each device's span with overlap accounted (gpu_time_view.h): computation, exposed
//             communication and memcpy, idle, per device and step;
//   Steps     each step's time by role, as the TensorBoard profiler's Overview splits it
//             (step_roles_view.h);
//   Kernels   per kernel name (optionally per launching CPU op / NVTX range, or per Python call
//             site of the launch: analysis/ops/launch_sites.h): count, total, mean,
//             min, max, median, p95, share, launch configs, launch latency, call duration; the
//             selected kernel's duration histogram below;
//   CPU Ops   count, total, self, and the GPU time of what each launched;
//   Copies    by kind and pageable: bytes, time, GB/s;
//   Advisor   the findings with their evidence; a click shows where in the timeline.
//   Critical Path  the critical path of a step, the whole trace or the selected range under
//             HTA's rule, its edges and the time per bound (critical_path_view.h; computed when
//             shown, highlighted on the timeline).
// Every table exports CSV, every chart PNG/SVG/PDF. The figures are the trace analysis' (shared
// with the Gaps dock and the timeline: the gap causes behind the advisor are computed once).
#include "workspace/analysis_panel.h"

class QAbstractItemModel;
class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata {

class CriticalPathView;
class GpuTimeView;
class StepRolesView;

template <typename Row> class RowTableModel;

class StatsPanel : public AnalysisPanel {
    Q_OBJECT
public:
    enum Tab {
        OverviewTab,
        GpuTimeTab,
        StepsTab,
        KernelsTab,
        CpuOpsTab,
        CopiesTab,
        AdvisorTab,
        CriticalPathTab
    };
    // How the Kernels table groups: by name, by name and launching CPU op / NVTX range, by name
    // and Python call site (the "Launched by" column says which op or site).
    enum Grouping { ByName, ByLaunchingOp, ByCallSite };
    StatsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~StatsPanel() override;

    void showTab(Tab t);
    void setGroupByOp(bool on); // ByLaunchingOp, or ByName
    void setGrouping(Grouping g);
    Grouping grouping() const { return grouping_; }
    void selectKernelRow(int row); // the duration histogram shows that kernel (source row)
    QAbstractItemModel* kernelsModel() const;
    QAbstractItemModel* cpuOpsModel() const;
    QAbstractItemModel* copiesModel() const;
    QAbstractItemModel* findingsModel() const;
    QAbstractItemModel* devicesModel() const;
    QCustomPlot* categoryChart() const { return categories_; }
    QCustomPlot* histogramChart() const { return histogram_; }
    GpuTimeView* gpuTimeView() const { return gpuTime_; }
    StepRolesView* stepRolesView() const { return stepRoles_; }
    CriticalPathView* criticalPathView() const { return criticalPath_; }

protected:
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& a) override;

private:
    struct Models;
    void exportMenu();

    Grouping grouping_ = ByName;
    QLabel* summary_;
    QTabWidget* tabs_;
    QComboBox* group_;
    QCustomPlot* categories_;
    QCustomPlot* histogram_;
    GpuTimeView* gpuTime_;
    StepRolesView* stepRoles_;
    CriticalPathView* criticalPath_;
    QLabel* findingDetail_;
    std::unique_ptr<Models> m_;
    std::vector<QTableView*> tables_;
};

} // namespace strata
