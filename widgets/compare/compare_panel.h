#pragma once
// The Compare dock (docs/compare.md): a baseline and a candidate (workspace/trace_comparison.h),
// each the whole trace or one of its steps (chosen on top), and their difference, the one
// strata-cli diff prints (core/analysis/trace_diff.h): tabs of kernels, CPU ops, copies and
// in-kernel sections, the GPUs and the steps side by side
// (status, the difference in total time and share, both sides' count, total, mean), sorted by
// their effect on the total, the added and removed marked and coloured; a tab of the GPUs (busy,
// idle and idle by cause, both sides). Beside them the rows with the largest effect as bars
// (red slower, green faster) and, for the row clicked, its durations on both sides as
// overlaid histograms. The timeline shows the candidate's tracks under the baseline's.
#include "workspace/trace_panel.h"

#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata {

class TraceComparison;
struct DiffRow;
struct DeviceDiff;
struct StepDiff;
template <typename Row> class RowTableModel;

class ComparePanel : public TracePanel {
    Q_OBJECT
public:
    ComparePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    enum Tab { Kernels, Ops, Copies, Sections, Devices, Steps };
    QTabWidget* tabs() const { return tabs_; }
    QString summaryText() const;
    const std::vector<DiffRow>& rows(Tab tab) const; // Kernels, Ops, Copies or Sections
    const std::vector<DeviceDiff>& deviceRows() const;
    const std::vector<StepDiff>& stepRows() const;
    QCustomPlot* deltas() const { return deltas_; }
    QCustomPlot* histograms() const { return histograms_; }
    // The same as a click on row `row` (in the model's order) of tab `tab`: its histograms.
    void showRow(Tab tab, int row);
    // Each side's choice: "" = the whole trace, else a step's name.
    void chooseStep(bool candidate, const QString& step);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void refresh();
    void present();
    void fillSteps();
    TraceComparison* comparison_;
    QLabel* summary_;
    QComboBox* baselineStep_;
    QComboBox* candidateStep_;
    QTabWidget* tabs_;
    std::vector<RowTableModel<DiffRow>*> models_; // Kernels, Ops, Copies, Sections
    std::vector<QTableView*> tables_;
    RowTableModel<DeviceDiff>* devices_;
    RowTableModel<StepDiff>* steps_;
    QCustomPlot* deltas_;
    QCustomPlot* histograms_;
    bool filling_ = false;
};

} // namespace strata
