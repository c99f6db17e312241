#include "range_panel.h"

#include "model/time_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata {

RangePanel::RangePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), jobs_(new JobRunner(this)),
      model_(new RangeAggregationModel(this)), proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView(this)), summary_(new QLabel(this)), timer_(new QTimer(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(RangeAggregationModel::SortRole);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(RangeAggregationModel::Total, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    view_->horizontalHeader()->setSectionResizeMode(RangeAggregationModel::Name,
                                                    QHeaderView::Stretch);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setObjectName(QStringLiteral("rangeSummary"));
    summary_->setToolTip(tr("Slices are clipped to the range: one that crosses an edge counts "
                            "the part inside (GPU statistics count a kernel whole, by its "
                            "start)."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(view_);
    timer_->setSingleShot(true);
    timer_->setInterval(30);
    connect(timer_, &QTimer::timeout, this, &RangePanel::apply);
    traceChanged(trace());
}

void RangePanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    trace_ = trace;
    jobs_->cancel();
    timer_->stop();
    pending_.reset();
    model_->setTrace(trace);
    showSummary();
}

void RangePanel::setRange(std::optional<TimeRange> r) {
    pending_ = r;
    if (!timer_->isActive()) timer_->start();
}

void RangePanel::flush() {
    if (timer_->isActive()) {
        timer_->stop();
        apply();
    }
    jobs_->waitForFinished();
}

QString RangePanel::summaryText() const {
    return summary_->text();
}

void RangePanel::apply() {
    const std::optional<TimeRange> range = pending_;
    if (!range || !trace_) {
        jobs_->cancel();
        model_->setAggregation(std::nullopt, {});
        showSummary();
        return;
    }
    jobs_->run([trace = trace_, r = *range](JobControl&) { return aggregateRange(*trace, r); },
               [this, range](RangeAggregation agg) {
                   model_->setAggregation(range, std::move(agg));
                   showSummary();
               });
}

void RangePanel::showSummary() {
    const std::optional<TimeRange> r = model_->range();
    if (!r || !trace_) {
        summary_->setText(tr("Drag on the time ruler to select a range."));
        return;
    }
    const TimeNs origin = trace_->bounds().start;
    summary_->setText(tr("%1 \u2013 %2  (duration %3) \u00b7 %4 slices, %5 names")
                          .arg(QString::fromStdString(formatPreciseDuration(r->start - origin)),
                               QString::fromStdString(formatPreciseDuration(r->end - origin)),
                               QString::fromStdString(formatPreciseDuration(r->duration())))
                          .arg(model_->aggregation().sliceCount)
                          .arg(model_->rowCount()));
}

} // namespace strata
