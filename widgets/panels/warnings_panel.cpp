#include "warnings_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace strata {

WarningsPanel::WarningsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), list_(new QListWidget(this)),
      header_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(header_);
    layout->addWidget(list_);
    list_->setWordWrap(true);
    list_->setAlternatingRowColors(true);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    traceChanged(trace());
}

void WarningsPanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    QStringList warnings;
    if (trace)
        for (const std::string& w : trace->warnings()) warnings << QString::fromStdString(w);
    setWarnings(warnings);
}

void WarningsPanel::setWarnings(const QStringList& warnings) {
    list_->clear();
    const QIcon icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const QString& w : warnings) {
        auto* item = new QListWidgetItem(icon, w, list_);
        item->setToolTip(w);
    }
    header_->setText(warnings.isEmpty() ? tr("No warnings.")
                     : warnings.size() == 1
                         ? tr("1 warning while loading:")
                         : tr("%1 warnings while loading:").arg(warnings.size()));
}

int WarningsPanel::count() const {
    return list_->count();
}

QStringList WarningsPanel::warnings() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->text();
    return out;
}

} // namespace strata
