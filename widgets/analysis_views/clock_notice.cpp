#include "clock_notice.h"

#include "model/names/time_text.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace strata {

ClockNotice::ClockNotice(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), label_(new QLabel(this)),
      apply_(new QToolButton(this)) {
    setObjectName(QStringLiteral("clockNotice"));
    label_->setStyleSheet(QStringLiteral("color:#a04000"));
    apply_->setAutoRaise(true);
    apply_->setToolTip(tr("Move the GPU's timestamps by the clock offset the trace shows, so "
                          "that kernels start after their launches"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(apply_);
    connect(apply_, &QToolButton::clicked, this, &ClockNotice::applyShift);
    hide();
    refresh();
}

QString ClockNotice::text() const {
    return isHidden() ? QString() : label_->text();
}

AnalysisPanel::Preparation ClockNotice::preparation() const {
    return [](const TraceAnalysis& a) { a.gapCauses(); };
}

void ClockNotice::present(const std::shared_ptr<const TraceAnalysis>& a) {
    shift_ = 0;
    const ClockCheck* c = a ? &a->gapCauses().clock : nullptr;
    if (!c || (!c->offset() && !c->startBeforeLaunch)) {
        hide();
        return;
    }
    auto d = [](TimeNs ns) { return QString::fromStdString(formatDuration(ns)); };
    shift_ = c->suggestedShift;
    QString text = c->offset()
                       ? tr("⚠ GPU clock %1 ahead: %2 launches on an idle GPU started %3–%4 late")
                             .arg(d(c->leastIdleDelay))
                             .arg(c->idleLaunches)
                             .arg(d(c->leastIdleDelay), d(c->mostIdleDelay))
                       : tr("⚠ %1 kernels start before their launch (by up to %2)")
                             .arg(c->startBeforeLaunch)
                             .arg(d(c->mostBefore));
    label_->setText(text);
    label_->setToolTip(QString::fromStdString(clockWarnings(*c).front()));
    apply_->setVisible(shift_ != 0);
    apply_->setText(tr("Shift the GPU by %1%2").arg(shift_ > 0 ? "+" : "−", d(std::abs(shift_))));
    apply_->setToolTip(tr("Move every GPU op by the estimated offset against the CPU; gaps, "
                          "causes and launch latencies are computed again"));
    show();
}

void ClockNotice::selectedRangeChanged(std::optional<TimeRange>) {}

void ClockNotice::applyShift() {
    const std::shared_ptr<const Trace> t = trace();
    if (!t || shift_ == 0) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    workspace()->amendCurrent(t->withGpuTimeShifted(shift_));
    QApplication::restoreOverrideCursor();
}

} // namespace strata
