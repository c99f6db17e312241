#include "range_panel.h"

#include "model/time_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace strata {

RangePanel::RangePanel(QWidget* parent)
    : QWidget(parent), model_(new RangeAggregationModel(this)),
      proxy_(new QSortFilterProxyModel(this)), view_(new QTableView(this)),
      summary_(new QLabel(this)), timer_(new QTimer(this)) {
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
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(view_);
    timer_->setSingleShot(true);
    timer_->setInterval(30);
    connect(timer_, &QTimer::timeout, this, &RangePanel::apply);
    setRange(std::nullopt);
    flush();
}

void RangePanel::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = trace;
    model_->setTrace(std::move(trace));
    pending_.reset();
    apply();
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
}

QString RangePanel::summaryText() const {
    return summary_->text();
}

void RangePanel::apply() {
    model_->setRange(pending_);
    if (!pending_ || !trace_) {
        summary_->setText(tr("Drag on the time ruler to select a range."));
        return;
    }
    const TimeNs origin = trace_->bounds().start;
    summary_->setText(
        tr("%1 \u2013 %2  (duration %3) \u00b7 %4 slices, %5 names")
            .arg(QString::fromStdString(formatPreciseDuration(pending_->start - origin)),
                 QString::fromStdString(formatPreciseDuration(pending_->end - origin)),
                 QString::fromStdString(formatPreciseDuration(pending_->duration())))
            .arg(model_->aggregation().sliceCount)
            .arg(model_->rowCount()));
}

} // namespace strata
