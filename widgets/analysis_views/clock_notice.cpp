#include "clock_notice.h"

#include "model/names/time_text.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace strata {

namespace {

QString duration(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

// "+1.5 ms", "−150.0 ms"
QString signedDuration(TimeNs ns) {
    return (ns > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + duration(std::abs(ns));
}

} // namespace

ClockNotice::ClockNotice(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), label_(new QLabel(this)),
      apply_(new QToolButton(this)), shifted_(new QLabel(this)), undo_(new QToolButton(this)) {
    setObjectName(QStringLiteral("clockNotice"));
    label_->setStyleSheet(QStringLiteral("color:#a04000"));
    apply_->setObjectName(QStringLiteral("shiftGpu"));
    apply_->setAutoRaise(true);
    apply_->setToolTip(tr("Move every GPU op by the estimated offset against the CPU; gaps, "
                          "causes and launch latencies are computed again"));
    shifted_->setObjectName(QStringLiteral("gpuShiftNotice"));
    shifted_->setToolTip(tr("The GPU ops were moved against the CPU: the times shown are not the "
                            "recorded ones"));
    shifted_->setStyleSheet(QStringLiteral("background:#ffe8b0; color:#5a3000; padding:1px 6px; "
                                           "border-radius:3px; font-weight:bold"));
    undo_->setObjectName(QStringLiteral("undoGpuShift"));
    undo_->setText(tr("Undo"));
    undo_->setToolTip(tr("Put the GPU ops back where the trace recorded them"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(shifted_);
    layout->addWidget(undo_);
    layout->addWidget(label_);
    layout->addWidget(apply_);
    connect(apply_, &QToolButton::clicked, this, &ClockNotice::applyShift);
    connect(undo_, &QToolButton::clicked, this, &ClockNotice::undoShift);
    showParts();
    refresh();
}

QString ClockNotice::text() const {
    return warning_ ? label_->text() : QString();
}

QString ClockNotice::shiftText() const {
    return applied_ != 0 ? shifted_->text() : QString();
}

AnalysisPanel::Preparation ClockNotice::preparation() const {
    return [](const TraceAnalysis& a) { a.gapCauses(); };
}

void ClockNotice::present(const std::shared_ptr<const TraceAnalysis>& a) {
    shift_ = 0;
    const ClockCheck* c = a ? &a->gapCauses().clock : nullptr;
    warning_ = c && (c->offset() || c->startBeforeLaunch);
    if (warning_) {
        shift_ = c->suggestedShift;
        label_->setText(
            c->offset() ? tr("⚠ GPU clock %1 ahead: %2 launches on an idle GPU started %3–%4 late")
                              .arg(duration(c->leastIdleDelay))
                              .arg(c->idleLaunches)
                              .arg(duration(c->leastIdleDelay), duration(c->mostIdleDelay))
                        : tr("⚠ %1 kernels start before their launch (by up to %2)")
                              .arg(c->startBeforeLaunch)
                              .arg(duration(c->mostBefore)));
        label_->setToolTip(QString::fromStdString(clockWarnings(*c).front()));
        apply_->setText(tr("Shift the GPU by %1").arg(signedDuration(shift_)));
    }
    showParts();
}

void ClockNotice::traceChanged(const std::shared_ptr<const Trace>& trace) {
    // The shifted trace amended is still the shifted trace; anything else shown was not shifted.
    if (!workspace()->amending()) applied_ = 0;
    showParts();
    AnalysisPanel::traceChanged(trace);
}

void ClockNotice::selectedRangeChanged(std::optional<TimeRange>) {}

void ClockNotice::applyShift() {
    shiftBy(shift_);
}

void ClockNotice::undoShift() {
    shiftBy(-applied_);
}

void ClockNotice::shiftBy(TimeNs shift) {
    const std::shared_ptr<const Trace> t = trace();
    if (!t || shift == 0) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    applied_ += shift; // before the amendment, which the views (and traceChanged) hear of
    warning_ = false;  // until the shifted trace's clocks are checked again
    shift_ = 0;
    workspace()->amendCurrent(t->withGpuTimeShifted(shift));
    QApplication::restoreOverrideCursor();
    showParts();
}

void ClockNotice::showParts() {
    label_->setVisible(warning_);
    apply_->setVisible(warning_ && shift_ != 0);
    if (applied_ != 0) {
        shifted_->setText(tr("GPU shifted by %1").arg(signedDuration(applied_)));
        shifted_->setToolTip(tr("Every GPU op was moved by %1 against the CPU to correct the "
                                "clock offset: the times shown are not the recorded ones")
                                 .arg(signedDuration(applied_)));
    }
    shifted_->setVisible(applied_ != 0);
    undo_->setVisible(applied_ != 0);
    setVisible(warning_ || applied_ != 0);
}

} // namespace strata
