#include "panels/trace_info_panel.h"

#include "analysis/trace_info.h"
#include "io/trace_loader.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

TraceInfoPanel::TraceInfoPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), notice_(new QLabel(this)),
      table_(new QTableWidget(this)) {
    notice_->setObjectName(QStringLiteral("traceInfoNotice"));
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notice_->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4ce; color: #5c4400; padding: 6px; border-radius: 3px; }"));
    notice_->hide();
    table_->setObjectName(QStringLiteral("traceInfoTable"));
    table_->setColumnCount(2);
    table_->setHorizontalHeaderLabels({tr("Field"), tr("Value")});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(true);
    table_->setAlternatingRowColors(true);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addWidget(notice_);
    v->addWidget(table_, 1);
    traceChanged(trace());
}

void TraceInfoPanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    table_->setRowCount(0);
    notice_->hide();
    if (!trace) return;
    const OpenTrace* open = workspace()->currentTrace();
    const QString path = open ? open->path : QString();
    const TraceInfo info =
        traceInfo(*trace, path.toStdString(), open ? open->format.toStdString() : std::string());
    const auto rows = traceInfoRows(info);
    table_->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const QString label = QString::fromStdString(rows[size_t(i)].first);
        const QString value = QString::fromStdString(rows[size_t(i)].second);
        auto* l = new QTableWidgetItem(label);
        auto* v = new QTableWidgetItem(value);
        v->setToolTip(value.size() > 80 ? value.left(4000) : QString());
        table_->setItem(i, 0, l);
        table_->setItem(i, 1, v);
    }
    table_->resizeRowsToContents();
    if (!info.noGpuReason.empty()) {
        notice_->setText(
            tr("No GPU activity in this trace: %1.").arg(QString::fromStdString(info.noGpuReason)));
        notice_->show();
    }
}

QString TraceInfoPanel::value(const QString& label) const {
    for (int i = 0; i < table_->rowCount(); ++i)
        if (table_->item(i, 0)->text() == label) return table_->item(i, 1)->text();
    return {};
}

QString TraceInfoPanel::notice() const {
    return notice_->isHidden() ? QString() : notice_->text();
}

int TraceInfoPanel::rowCount() const {
    return table_->rowCount();
}

} // namespace strata
