#pragma once
// The Call Tree dock: the CPU hierarchy of one thread or all, top-down or bottom-up, as a tree
// (total, self, count, GPU time launched) beside a flame graph (click to zoom, search to
// highlight, widths by CPU time or by the GPU time of the work launched). Over the selected range
// or the whole trace, counting the slices that start in it, whole; the trees are the trace
// analysis' (core/analysis/call_tree.h), one per thread, direction and weight.
#include "workspace/analysis_panel.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTreeView;

namespace strata {

class CallTreeModel;
class FlameGraph;
class SampleProfileModel;
struct SampleProfile;

class CallTreePanel : public AnalysisPanel {
    Q_OBJECT
public:
    CallTreePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~CallTreePanel() override;

    void setBottomUp(bool on);
    void setGpuWeight(bool on);
    void setSearch(const QString& text);
    // The tree and flame graph from the sampled stacks (with the top functions), or from the
    // slices; the choice is shown when the trace has samples.
    void setFromSamples(bool on);
    void setNativeSamples(); // "Native samples", where the trace has both kinds
    bool fromSamples() const;
    bool samplesChoiceShown() const;
    // In Samples mode, the top functions' tab in front (else the call tree's).
    void setTopFunctionsShown(bool on);
    // The thread chooser's thread tracks, in its order after "All threads".
    const std::vector<TrackId>& threads() const { return threads_; }
    void setThread(TrackId t); // UINT32_MAX: all
    CallTreeModel* model() const { return model_; }
    SampleProfileModel* profileModel() const { return profile_; }
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
        bool samples = false;
        bool native = false; // the native samples alone (a trace with Python's too)
    };
    Choice choice() const;
    void addSampleOnlyThreads(const Trace* trace);
    void showSource(); // the controls of Calls or Samples, then refresh
    void showProfile(const SampleProfile* p, const Trace* trace);
    std::shared_ptr<const CallTree> tree_;
    QComboBox* source_; // Calls | Samples
    QComboBox* thread_;
    QComboBox* direction_;
    QCheckBox* gpu_;
    QLineEdit* search_;
    QTreeView* view_;
    CallTreeModel* model_;
    FlameGraph* flame_;
    QTabWidget* tabs_; // the call tree; the top functions (samples)
    QTableView* functions_;
    SampleProfileModel* profile_;
    QLabel* sampleSummary_;        // "N samples on M threads, one every P"
    std::vector<TrackId> threads_; // the chooser's, after "All threads"
    TrackId trackCount_ = 0;       // the trace's tracks: ids past them are sample-only threads
};

} // namespace strata
