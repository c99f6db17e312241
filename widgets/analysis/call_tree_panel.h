#pragma once
// The Call Tree dock: the CPU hierarchy of one thread or all, top-down or bottom-up, as a tree
// (total, self, count, GPU time launched) beside a flame graph (click to zoom, search to
// highlight, widths by CPU time or by the GPU time of the work launched). Over the selected range
// or the whole trace; computed off the GUI thread (core/analysis/call_tree.h).
#include "analysis/call_tree.h"
#include "workspace/trace_panel.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QTreeView;

namespace strata {

class CallTreeModel;
class FlameGraph;
class JobRunner;

class CallTreePanel : public TracePanel {
    Q_OBJECT
public:
    CallTreePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~CallTreePanel() override;

    void setBottomUp(bool on);
    void setGpuWeight(bool on);
    void setSearch(const QString& text);
    void waitForJobs();
    CallTreeModel* model() const { return model_; }
    FlameGraph* flameGraph() const { return flame_; }
    std::shared_ptr<const CallTree> tree() const { return tree_; }

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override;

private:
    void compute();
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const CallTree> tree_;
    std::optional<TimeRange> range_;
    JobRunner* jobs_;
    QComboBox* thread_;
    QComboBox* direction_;
    QCheckBox* gpu_;
    QLineEdit* search_;
    QTreeView* view_;
    CallTreeModel* model_;
    FlameGraph* flame_;
    std::vector<TrackId> threads_;
};

} // namespace strata
