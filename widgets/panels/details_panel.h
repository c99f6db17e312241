#pragma once
// The "Details" dock: everything about the selected slice. Name, category, track, start (relative
// to the trace start), duration, self time, args; for GPU activity the launch configuration
// (device, stream, grid, block, registers, shared memory, bytes, correlation); for an API call
// or a GPU op, its Python call site (analysis/ops/launch_sites.h; a link); and correlated
// slices as links (launching API call, GPU ops it launched, slices with the same External id,
// flows in and out, enclosing slices). It shows the navigation's selected slice; clicking a link
// selects that slice (and asks the views to reveal it) and emits sliceActivated().
#include "model/trace.h"
#include "workspace/meta_types.h"
#include "workspace/trace_panel.h"

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace strata {

class DetailsPanel : public TracePanel {
    Q_OBJECT
public:
    DetailsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    void showSlice(SliceRef r); // a slice of the current trace; invalid = nothing selected
    SliceRef slice() const { return slice_; }
    // Sample `index` of the trace's sampled thread `thread` (StackSamples::threads): its
    // thread, time and kind, and its stack, innermost frame first.
    void showSample(int thread, quint64 index);

    QTreeWidget* tree() const { return tree_; }
    // Value of the first row whose field reads `field` (in section `section` if given).
    QString value(const QString& field, const QString& section = {}) const;
    // Link rows (in tree order) and their targets.
    QList<QTreeWidgetItem*> linkItems() const;
    static SliceRef linkTarget(const QTreeWidgetItem* item);

signals:
    void sliceActivated(strata::SliceRef r);

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedSliceChanged(const TraceSliceRef& r) override;

private:
    void activate(QTreeWidgetItem* item);
    QTreeWidgetItem* section(const QString& title);
    QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& field, const QString& value);
    QTreeWidgetItem* link(QTreeWidgetItem* parent, const QString& field, SliceRef target);
    void addSliceRows(SliceRef r);
    void addLaunchRows(SliceRef r);
    void addCallSiteRow(SliceRef r); // an API call's or GPU op's Python call site
    // A CUDA graph launch's or node's replay, its nodes linked; returns the slices it linked.
    std::vector<SliceRef> addGraphReplayRows(SliceRef r);
    void addGpuMetricRows(SliceRef r);
    // The related slices, those in `shown` left out.
    void addCorrelatedRows(SliceRef r, std::vector<SliceRef> shown);

    std::shared_ptr<const Trace> trace_;
    SliceRef slice_;
    QLabel* title_;
    QTreeWidget* tree_;
};

} // namespace strata
