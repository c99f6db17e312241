#pragma once
// A flame graph of a call tree (core/analysis/call_tree.h): each node a box as wide as its share
// of its parent (by CPU time, or by the GPU time of the work launched under it), children stacked
// below their parent (icicle order: the root at the top). Click a box to zoom into it (its
// ancestors stay above, full width); click the root to zoom out. Boxes whose name contains the
// search text are highlighted, the rest faded. Hover for name, total, self, count and GPU time.
#include "analysis/call_tree.h"
#include "style/slice_palette.h"

#include <QWidget>

#include <memory>

namespace strata {

class FlameGraph : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraph(QWidget* parent = nullptr);

    void setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTree> tree);
    void setGpuWeight(bool on); // widths from GPU time launched, not CPU time
    // A tree of stack samples: names read "file:line function", the hover says samples (and no
    // GPU time).
    void setSamples(bool on) { samples_ = on; }
    void setSearch(const QString& text);
    void zoomTo(uint32_t node); // 0: the whole tree
    uint32_t zoomed() const { return zoom_; }
    // The node drawn at a point (UINT32_MAX: none).
    uint32_t nodeAt(QPoint p) const;
    QSize sizeHint() const override { return {800, 300}; }

signals:
    void nodeClicked(uint32_t node);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips

private:
    struct Box {
        uint32_t node;
        QRectF rect;
    };
    void layout();
    double weight(uint32_t node) const;

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const CallTree> tree_;
    bool gpu_ = false;
    bool samples_ = false;
    QString search_;
    uint32_t zoom_ = 0;
    std::vector<Box> boxes_;
    SliceColorCache colors_; // the timeline's colours for the same names
    QSize laidOutFor_;
};

} // namespace strata
