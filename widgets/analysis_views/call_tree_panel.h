#pragma once
// The Call Tree dock: the CPU hierarchy of one thread or all, top-down or bottom-up, as a tree
// (total, self, count, GPU time launched) beside a flame graph (click to zoom, search to
// highlight, widths by CPU time or by the GPU time of the work launched). Over the selected range
// or the whole trace, counting the slices that start in it, whole; the trees are the trace
// analysis' (core/analysis/call_tree.h), one per thread, direction and weight.
#include "workspace/analysis_panel.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QTreeView;

namespace strata {

class CallTreeModel;
class FlameGraph;

class CallTreePanel : public AnalysisPanel {
    Q_OBJECT
public:
    CallTreePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~CallTreePanel() override;

    void setBottomUp(bool on);
    void setGpuWeight(bool on);
    void setSearch(const QString& text);
    CallTreeModel* model() const { return model_; }
    FlameGraph* flameGraph() const { return flame_; }
    std::shared_ptr<const CallTree> tree() const { return tree_; }

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& a) override;

private:
    struct Choice { // what the controls ask for
        TrackId thread = UINT32_MAX;
        bool bottomUp = false;
        bool withGpuTime = true;
    };
    Choice choice() const;
    std::shared_ptr<const CallTree> tree_;
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
