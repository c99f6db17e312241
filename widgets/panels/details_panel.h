#pragma once
// The "Details" dock: everything about the selected slice. Name, category, track, start (relative
// to the trace start), duration, self time, args; for GPU activity the launch configuration
// (device, stream, grid, block, registers, shared memory, bytes, correlation); and correlated
// slices as links (launching API call, GPU ops it launched, slices with the same External id,
// flows in and out, enclosing slices). Clicking a link emits sliceActivated().
#include "model/trace.h"
#include "timeline/meta_types.h"

#include <QWidget>
#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace strata {

class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPanel(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    void showSlice(SliceRef r); // invalid = nothing selected
    SliceRef slice() const { return slice_; }

    QTreeWidget* tree() const { return tree_; }
    // Value of the first row whose field reads `field` (in section `section` if given).
    QString value(const QString& field, const QString& section = {}) const;
    // Link rows (in tree order) and their targets.
    QList<QTreeWidgetItem*> linkItems() const;
    static SliceRef linkTarget(const QTreeWidgetItem* item);

signals:
    void sliceActivated(strata::SliceRef r);

private:
    QTreeWidgetItem* section(const QString& title);
    QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& field, const QString& value);
    QTreeWidgetItem* link(QTreeWidgetItem* parent, const QString& field, SliceRef target);
    void addSliceRows(SliceRef r);
    void addLaunchRows(SliceRef r);
    void addCorrelatedRows(SliceRef r);

    std::shared_ptr<const Trace> trace_;
    SliceRef slice_;
    QLabel* title_;
    QTreeWidget* tree_;
};

} // namespace strata
