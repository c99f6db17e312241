#include "flame_graph.h"

#include "model/names/time_text.h"
#include "style/frame_text.h"
#include "style/qt_text.h"
#include "style/slice_palette.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace strata {

namespace {
constexpr int kRow = 18;
}

FlameGraph::FlameGraph(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(120);
}

void FlameGraph::setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTree> tree) {
    trace_ = std::move(trace);
    tree_ = std::move(tree);
    colors_.reset(trace_ ? trace_->strings().size() : 0);
    zoom_ = 0;
    layout();
    update();
}

void FlameGraph::setGpuWeight(bool on) {
    gpu_ = on;
    layout();
    update();
}

void FlameGraph::setSearch(const QString& text) {
    search_ = text;
    update();
}

void FlameGraph::zoomTo(uint32_t node) {
    zoom_ = tree_ && node < tree_->nodes.size() ? node : 0;
    layout();
    update();
}

double FlameGraph::weight(uint32_t n) const {
    const CallNode& c = tree_->nodes[n];
    return double(gpu_ ? c.gpu : c.total);
}

void FlameGraph::layout() {
    boxes_.clear();
    laidOutFor_ = size();
    if (!tree_ || tree_->nodes.empty()) return;
    const double w = width();
    // The zoomed node's ancestors, full width, above it.
    std::vector<uint32_t> chain;
    for (uint32_t n = zoom_; n != UINT32_MAX; n = tree_->nodes[n].parent) chain.push_back(n);
    std::reverse(chain.begin(), chain.end());
    for (size_t i = 0; i + 1 < chain.size(); ++i)
        boxes_.push_back({chain[i], QRectF(0, double(i) * kRow, w, kRow - 1)});
    const double top = double(chain.size() - 1) * kRow;
    // Below the zoomed node, each child as wide as its share of its parent.
    struct Item {
        uint32_t node;
        double x, width, y;
    };
    std::vector<Item> stack{{zoom_, 0, w, top}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        boxes_.push_back({it.node, QRectF(it.x, it.y, it.width, kRow - 1)});
        const double total = weight(it.node);
        if (total <= 0 || it.y > height()) continue;
        double x = it.x;
        for (uint32_t ch : tree_->nodes[it.node].children) {
            const double cw = it.width * weight(ch) / total;
            if (cw >= 0.5) stack.push_back({ch, x, cw, it.y + kRow});
            x += cw;
        }
    }
}

void FlameGraph::paintEvent(QPaintEvent*) {
    if (laidOutFor_ != size()) layout();
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    if (!tree_ || !trace_) return;
    const QFontMetrics fm(font());
    for (const Box& b : boxes_) {
        const CallNode& n = tree_->nodes[b.node];
        QColor c =
            b.node == 0
                ? QColor(0x90, 0x98, 0xa4)
                : QColor::fromRgb(colors_.get(n.name, trace_->str(n.name), SliceKind::CpuOp));
        const QString name = b.node == 0 ? (tree_->bottomUp ? tr("all (bottom-up)") : tr("all"))
                             : samples_  ? sampleFrameText(trace_->str(n.name))
                                         : toQString(trace_->displayName(n.name));
        if (!search_.isEmpty() && b.node != 0) {
            // The full name is searched: a part the short one elides is found too.
            if (toQString(trace_->str(n.name)).contains(search_, Qt::CaseInsensitive))
                c = QColor(0xe0, 0x40, 0xa0);
            else
                c = c.lighter(160);
        }
        p.fillRect(b.rect, c);
        if (b.rect.width() > 30) {
            p.setPen(qGray(c.rgb()) > 140 ? Qt::black : Qt::white);
            p.drawText(b.rect.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(name, Qt::ElideRight, int(b.rect.width()) - 5));
        }
    }
}

uint32_t FlameGraph::nodeAt(QPoint pt) const {
    for (const Box& b : boxes_)
        if (b.rect.contains(pt)) return b.node;
    return UINT32_MAX;
}

void FlameGraph::mousePressEvent(QMouseEvent* e) {
    const uint32_t n = nodeAt(e->position().toPoint());
    if (n == UINT32_MAX) return;
    zoomTo(n == zoom_ ? tree_->nodes[n].parent == UINT32_MAX ? 0 : tree_->nodes[n].parent : n);
    emit nodeClicked(n);
}

bool FlameGraph::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && tree_ && trace_) {
        auto* h = static_cast<QHelpEvent*>(e);
        const uint32_t n = nodeAt(h->pos());
        if (n == UINT32_MAX) {
            QToolTip::hideText();
            return true;
        }
        const CallNode& c = tree_->nodes[n];
        auto d = [](TimeNs ns) { return QString::fromStdString(formatPreciseDuration(ns)); };
        const double parent = c.parent == UINT32_MAX ? 0 : double(tree_->nodes[c.parent].total);
        const QString name = n == 0 ? tr("all") : wrappedText(trace_->str(c.name));
        const QString share = parent > 0
                                  ? QString::number(100.0 * double(c.total) / parent, 'f', 1) + " %"
                                  : QString("—");
        QToolTip::showText(h->globalPos(),
                           samples_
                               ? tr("%1\ntotal %2 (%3 of its parent), self %4, %5 samples")
                                     .arg(name, d(c.total), share, d(c.self))
                                     .arg(c.count)
                               : tr("%1\ntotal %2 (%3 of its parent), self %4, %5 slices, GPU %6")
                                     .arg(name, d(c.total), share, d(c.self))
                                     .arg(c.count)
                                     .arg(d(c.gpu)),
                           this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace strata
