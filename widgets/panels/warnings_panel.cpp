#include "warnings_panel.h"

#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace strata {

namespace {
QStringList loadWarnings(const Trace* trace) {
    QStringList out;
    if (trace)
        for (const std::string& w : trace->warnings()) out << QString::fromStdString(w);
    return out;
}
} // namespace

WarningsPanel::WarningsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), list_(new QListWidget(this)),
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
    setWarnings(loadWarnings(trace.get())); // at once; the analysis's when it is done
    AnalysisPanel::traceChanged(trace);
}

AnalysisPanel::Preparation WarningsPanel::preparation() const {
    return [](const TraceAnalysis& a) {
        a.gapCauses();
        a.memory();
    };
}

void WarningsPanel::present(const std::shared_ptr<const TraceAnalysis>& analysis) {
    QStringList belief, load = loadWarnings(trace().get());
    if (analysis) {
        for (const std::string& w : analysis->gapCauses().warnings)
            belief << QString::fromStdString(w);
        for (const std::string& w : analysis->memory().warnings) // memory rows not drawn
            load << QString::fromStdString(w);
    }
    setWarnings(load, belief);
    if (!belief.isEmpty()) emit beliefWarnings(int(belief.size()));
}

void WarningsPanel::setWarnings(const QStringList& warnings, const QStringList& belief) {
    list_->clear();
    const QIcon icon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon info = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    for (const QString& w : belief) {
        auto* item = new QListWidgetItem(icon, w, list_);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
        item->setToolTip(tr("Changes what the trace's figures mean: %1").arg(w));
    }
    for (const QString& w : warnings) {
        auto* item = new QListWidgetItem(info, w, list_);
        item->setToolTip(w);
    }
    belief_ = int(belief.size());
    const int n = int(warnings.size() + belief.size());
    const QString loading = warnings.size() == 1
                                ? tr("1 warning while loading")
                                : tr("%1 warnings while loading").arg(warnings.size());
    if (n == 0)
        header_->setText(tr("No warnings."));
    else if (belief.isEmpty())
        header_->setText(loading + QLatin1Char(':'));
    else
        header_->setText(
            tr("%1 on what the trace's figures mean, then %2:")
                .arg(belief.size() == 1 ? tr("1 warning") : tr("%1 warnings").arg(belief.size()),
                     loading));
    emit changed(n);
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
