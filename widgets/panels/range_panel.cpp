#include "range_panel.h"

#include "model/names/time_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

RangePanel::RangePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), model_(new RangeAggregationModel(this)),
      proxy_(new QSortFilterProxyModel(this)), view_(new QTableView(this)),
      summary_(new QLabel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(RangeAggregationModel::SortRole);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(RangeAggregationModel::Total, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    // The numbers take the width they need, never elided ("796.1…57 ms"); the name takes the
    // rest and ends in "…" when it must (in full on hover).
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setSectionResizeMode(RangeAggregationModel::Name,
                                                    QHeaderView::Stretch);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideRight);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setObjectName(QStringLiteral("rangeSummary"));
    summary_->setToolTip(tr("Slices are clipped to the range: one that crosses an edge counts "
                            "the part inside (GPU statistics count a kernel whole, by its "
                            "start)."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(view_);
    traceChanged(trace());
}

void RangePanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    model_->setTrace(trace);
    showSummary();
    AnalysisPanel::traceChanged(trace);
}

QString RangePanel::summaryText() const {
    return summary_->text();
}

AnalysisPanel::Preparation RangePanel::preparation() const {
    return [](const TraceAnalysis& a) { a.rangeAggregation(); };
}

void RangePanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    if (a)
        model_->setAggregation(a->range(), a->rangeAggregation());
    else
        model_->setAggregation(std::nullopt, {});
    showSummary();
}

void RangePanel::showSummary() {
    const std::optional<TimeRange> r = model_->range();
    const std::shared_ptr<const Trace> t = trace();
    if (!r || !t) {
        summary_->setText(tr("Drag on the time ruler to select a range."));
        return;
    }
    const TimeNs origin = t->bounds().start;
    summary_->setText(tr("%1 \u2013 %2  (duration %3) \u00b7 %4 slices, %5 names")
                          .arg(QString::fromStdString(formatPreciseDuration(r->start - origin)),
                               QString::fromStdString(formatPreciseDuration(r->end - origin)),
                               QString::fromStdString(formatPreciseDuration(r->duration())))
                          .arg(model_->aggregation().sliceCount)
                          .arg(model_->rowCount()));
}

} // namespace strata
