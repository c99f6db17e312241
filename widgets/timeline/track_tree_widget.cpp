#include "track_tree_widget.h"

#include "style/theme.h"

#include "group_label_fit.h"
#include "timeline_state.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cstdlib>

#include "timeline/timeline_legend.h"

namespace strata {

TrackTreeWidget::TrackTreeWidget(const TimelineState& state, QWidget* parent)
    : QWidget(parent), s_(state) {
    setFixedWidth(kWidth);
}

int TrackTreeWidget::labelsInView() const {
    int n = 0;
    const auto& rows = s_.layout.rows();
    for (int i = std::max(0, s_.layout.rowAt(s_.scrollY)); i < static_cast<int>(rows.size()); ++i) {
        const TrackRow& r = rows[i];
        if (r.height == 0) continue;
        if (r.y - s_.scrollY >= height()) break;
        if (r.y + r.height - s_.scrollY > 0) ++n;
    }
    return n;
}

void TrackTreeWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const ThemeColors colors = themeColors();
    p.fillRect(rect(), colors.tree);
    const auto& rows = s_.layout.rows();
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    for (int i = std::max(0, s_.layout.rowAt(s_.scrollY)); i < static_cast<int>(rows.size()); ++i) {
        const TrackRow& r = rows[i];
        if (r.height == 0) continue;
        const int top = r.y - s_.scrollY;
        if (top >= height()) break;
        if (top + r.height <= 0) continue;
        if (r.kind == TrackRow::Kind::Group) {
            p.fillRect(QRect(0, top, width(), r.height), colors.treeGroup);
            const bool collapsed = s_.layout.collapsed(r.group);
            const TrackGroup& g = s_.layout.groups()[size_t(r.group)];
            QPolygon tri;
            const int cy = top + TrackLayout::kHeaderHeight / 2;
            if (collapsed)
                tri << QPoint(8, cy - 5) << QPoint(14, cy) << QPoint(8, cy + 5);
            else
                tri << QPoint(6, cy - 3) << QPoint(16, cy - 3) << QPoint(11, cy + 3);
            p.setPen(Qt::NoPen);
            p.setBrush(colors.treeMuted);
            p.drawPolygon(tri);
            p.setPen(colors.treeText);
            const QRect lr(22, top, width() - 26, TrackLayout::kHeaderHeight);
            const FittedGroupLabel fit = fittedGroupLabel(r.group);
            p.setFont(fit.headFont);
            p.drawText(lr, Qt::AlignVCenter | Qt::AlignLeft, fit.head);
            if (!fit.tail.isEmpty()) {
                p.setFont(fit.tailFont);
                p.drawText(
                    lr.adjusted(QFontMetrics(fit.headFont).horizontalAdvance(fit.head), 0, 0, 0),
                    Qt::AlignVCenter | Qt::AlignLeft, fit.tail);
            }
            if (g.summaryGpu >= 0) {
                // What the strip under a folded rank's header shows.
                QString gpu = s_.layout.groups()[size_t(g.summaryGpu)].label;
                if (gpu.startsWith(g.rankPrefix)) gpu = gpu.mid(g.rankPrefix.size());
                p.setFont(small);
                p.setPen(colors.treeMuted);
                const QRect sr(22, top + TrackLayout::kHeaderHeight, width() - 26,
                               TrackLayout::kIdleHeight);
                p.drawText(sr, Qt::AlignVCenter | Qt::AlignLeft,
                           p.fontMetrics().elidedText(tr("%1 busy / idle").arg(gpu), Qt::ElideRight,
                                                      sr.width()));
            }
        } else {
            const QRect handle = levelsHandleRect(i);
            if (!handle.isNull()) {
                QFont link = small;
                link.setUnderline(true);
                p.setFont(link);
                p.setPen(palette().color(QPalette::Link));
                p.drawText(handle, Qt::AlignVCenter | Qt::AlignLeft,
                           r.expanded ? tr("fold levels")
                                      : tr("+%1 levels").arg(r.hiddenLevels + r.foldedDepths));
            }
            if (r.kind == TrackRow::Kind::Sections) {
                p.setFont(small);
                p.setPen(palette().color(QPalette::Link));
                const QRect lr(12, top, width() - 16, TrackLayout::kSectionsHeader);
                const QString text =
                    (r.expanded ? QStringLiteral("▾ ") : QStringLiteral("▸ ")) + r.label +
                    (r.expanded ? QString() : tr(" — click for %1 SM lanes").arg(r.smLanes));
                p.drawText(lr, Qt::AlignVCenter | Qt::AlignLeft,
                           p.fontMetrics().elidedText(text, Qt::ElideRight, lr.width()));
                p.setPen(colors.treeLine);
                p.drawLine(0, top + r.height - 1, width(), top + r.height - 1);
                continue;
            }
            const bool idle = r.kind == TrackRow::Kind::DeviceIdle;
            p.setFont(idle ? small : font());
            p.setPen(idle ? QColor(0xa0, 0x40, 0x38) : colors.treeText);
            const int h = std::min(r.height, idle ? r.height : TrackLayout::kDepthHeight + 2);
            const QRect lr(24, top, width() - 28, h);
            p.drawText(lr, Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(r.label, Qt::ElideRight, lr.width()));
        }
        p.setPen(colors.treeLine);
        p.drawLine(0, top + r.height - 1, width(), top + r.height - 1);
    }
    p.setPen(colors.rulerLine);
    p.drawLine(width() - 1, 0, width() - 1, height());
    if (dropY_) { // where a dragged track goes
        const int row = s_.layout.rowAt(*dropY_ + s_.scrollY);
        if (row >= 0) {
            const TrackRow& r = s_.layout.rows()[size_t(row)];
            const int y = *dropY_ < pressY_ ? r.y - s_.scrollY : r.y + r.height - s_.scrollY - 2;
            p.fillRect(QRect(0, y, width(), 2), colors.treeText);
        }
    }
}

FittedGroupLabel TrackTreeWidget::fittedGroupLabel(int group) const {
    if (group < 0 || group >= int(s_.layout.groups().size())) return {};
    const TrackGroup& g = s_.layout.groups()[size_t(group)];
    QFont bold = font();
    bold.setBold(true);
    return fitGroupLabel(g.rankLabel.isEmpty() ? g.label : g.rankLabel, bold, width() - 26);
}

QRect TrackTreeWidget::levelsHandleRect(int row) const {
    if (row < 0 || row >= static_cast<int>(s_.layout.rows().size())) return {};
    const TrackRow& r = s_.layout.rows()[row];
    const bool more = r.hiddenLevels > 0 || r.foldedDepths > 0;
    bool fewer = false;
    if (r.expanded) {
        for (int d : r.fullDepths) fewer |= d > TrackLayout::kDepthCap;
        for (const LaneFolds& f : r.folds) fewer |= !f.empty();
    }
    if (!r.thread || r.height == 0 || (!more && !fewer)) return {};
    return QRect(24, r.y - s_.scrollY + TrackLayout::kDepthHeight + 2, width() - 28, 16);
}

void TrackTreeWidget::mousePressEvent(QMouseEvent* e) {
    const int row = s_.layout.rowAt(static_cast<int>(e->position().y()) + s_.scrollY);
    if (row < 0) return;
    const TrackRow& r = s_.layout.rows()[row];
    if (r.kind == TrackRow::Kind::Group)
        emit groupToggled(r.group);
    else if (r.kind == TrackRow::Kind::Sections)
        emit rowExpandToggled(row); // its SM lanes
    else if (levelsHandleRect(row).contains(e->position().toPoint()))
        emit rowExpandToggled(row);
    else if (e->button() == Qt::LeftButton && !r.lanes.empty()) {
        dragRow_ = row;
        pressY_ = static_cast<int>(e->position().y());
    }
}

void TrackTreeWidget::mouseMoveEvent(QMouseEvent* e) {
    if (dragRow_ < 0) return;
    const int y = static_cast<int>(e->position().y());
    if (!dropY_ && std::abs(y - pressY_) < 5) return;
    dropY_ = y;
    setCursor(Qt::ClosedHandCursor);
    update();
}

void TrackTreeWidget::mouseReleaseEvent(QMouseEvent* e) {
    const int row = dragRow_;
    const bool dropped = dropY_.has_value();
    dragRow_ = -1;
    dropY_.reset();
    unsetCursor();
    update();
    if (!dropped || row < 0 || row >= static_cast<int>(s_.layout.rows().size())) return;
    const TrackRow& r = s_.layout.rows()[size_t(row)];
    if (!r.lanes.empty())
        emit trackDragged(r.lanes.front(), static_cast<int>(e->position().y()) + s_.scrollY);
}

void TrackTreeWidget::wheelEvent(QWheelEvent* e) {
    const int dy = e->angleDelta().y();
    if (dy != 0) emit scrollRequested(s_.scrollY - dy / 2);
    e->accept();
}

bool TrackTreeWidget::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const int row = s_.layout.rowAt(he->pos().y() + s_.scrollY);
        if (row >= 0) {
            const TrackRow& r = s_.layout.rows()[row];
            // GPU rows say what their colours mean (the legend, also in the ? help).
            const bool gpu = r.kind == TrackRow::Kind::DeviceIdle || r.gpuStream;
            QToolTip::showText(
                he->globalPos(),
                gpu ? QStringLiteral("<b>%1</b><br>%2")
                          .arg(r.label.toHtmlEscaped(),
                               timelineLegendHtml(double(s_.gaps.threshold()) / 1000))
                    : r.label,
                this);
        } else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace strata
