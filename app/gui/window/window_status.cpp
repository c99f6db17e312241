#include "window/window_status.h"

#include "analysis_views/clock_notice.h"
#include "io/load_preview_trace.h"
#include "model/names/time_text.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>

namespace strata {

WindowStatus::WindowStatus(QStatusBar* bar, Workspace* workspace, Navigation* nav)
    : QObject(bar), workspace_(workspace), progress_(new QProgressBar(bar)),
      cancel_(new QPushButton(tr("Cancel"), bar)), slices_(new QLabel(bar)),
      loadTime_(new QLabel(bar)), span_(new QLabel(bar)), cursor_(new QLabel(bar)),
      range_(new QLabel(bar)), warningsButton_(new QToolButton(bar)) {
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->setFormat(tr("Loading %p%"));
    progress_->hide();
    cancel_->setObjectName(QStringLiteral("cancelLoad"));
    cancel_->setToolTip(tr("Stop loading; the window stays as it was"));
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &WindowStatus::cancelRequested);
    slices_->setToolTip(tr("What the trace holds: slices (CPU and GPU), instants, flows "
                           "(launch \u2192 kernel and others) and counter samples"));
    loadTime_->setToolTip(tr("How long the trace took to open"));
    span_->setToolTip(tr("The trace's span: its first timestamp to its last"));
    cursor_->setObjectName(QStringLiteral("cursorTime"));
    cursor_->setToolTip(tr("The time under the mouse, from the start of the trace"));
    cursor_->setMinimumWidth(
        cursor_->fontMetrics().horizontalAdvance(QStringLiteral("at 000.000 000 ms")));
    warningsButton_->setAutoRaise(true);
    warningsButton_->setObjectName(QStringLiteral("warningsButton"));
    warningsButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    warningsButton_->setToolTip(tr("Show the Warnings panel"));
    connect(warningsButton_, &QToolButton::clicked, this, &WindowStatus::warningsRequested);
    bar->addWidget(progress_);
    bar->addWidget(cancel_);
    bar->addPermanentWidget(new ClockNotice(workspace, nav, bar));
    bar->addPermanentWidget(range_);
    bar->addPermanentWidget(cursor_);
    bar->addPermanentWidget(span_);
    bar->addPermanentWidget(slices_);
    bar->addPermanentWidget(loadTime_);
    bar->addPermanentWidget(warningsButton_);
    connect(nav, &Navigation::selectedRangeChanged, this, [this](std::optional<TimeRange> r) {
        range_->setText(
            r ? tr("Range %1").arg(QString::fromStdString(formatPreciseDuration(r->duration())))
              : QString());
    });
}

void WindowStatus::showProgress(double fraction) {
    if (fraction < 0) {
        progress_->setRange(0, 0);
    } else {
        progress_->setRange(0, 1000);
        progress_->setValue(int(fraction * 1000));
    }
    progress_->show();
    cancel_->show();
}

void WindowStatus::hideProgress() {
    progress_->hide();
    progress_->setRange(0, 1000);
    cancel_->hide();
}

void WindowStatus::setCursorTime(const QString& text) {
    cursor_->setText(text);
}

void WindowStatus::update(bool fromCache, int warnings) {
    const OpenTrace* shown = workspace_->currentTrace();
    if (!shown) {
        slices_->setText(tr("No trace"));
        loadTime_->clear();
        span_->clear();
        cursor_->clear();
        warningsButton_->setText(tr("0 warnings"));
        warningsButton_->setIcon(QIcon());
        return;
    }
    const Trace& trace = *shown->trace;
    QStringList held{tr("%L1 slices").arg(trace.sliceCount())};
    if (trace.instantCount()) held << tr("%L1 instants").arg(trace.instantCount());
    if (!trace.flows().empty()) held << tr("%L1 flows").arg(trace.flows().size());
    if (trace.counterSampleCount())
        held << tr("%L1 counter samples").arg(trace.counterSampleCount());
    // A load's first frames: how much was read, not the picture's own slices.
    slices_->setText(workspace_->previewing()
                         ? tr("loading: %1").arg(QString::fromStdString(previewOf(trace)))
                         : held.join(QStringLiteral(", ")));
    span_->setText(tr("span %1  \u00b7")
                       .arg(QString::fromStdString(formatDuration(trace.bounds().duration()))));
    const QString took = QString::fromStdString(formatPreciseDuration(shown->loadMs * 1'000'000));
    if (workspace_->previewing()) // what a load has read so far (Workspace::showPreview)
        loadTime_->setText(QStringLiteral("\u00b7"));
    else if (workspace_->live()) // a running program's trace, read again each picture
        loadTime_->setText(tr("\u00b7  live: its last picture read in %1  \u00b7").arg(took));
    else
        loadTime_->setText(fromCache
                               ? tr("\u00b7  loaded in %1 from the trace cache  \u00b7").arg(took)
                               : tr("\u00b7  loaded in %1  \u00b7").arg(took));
    warningsButton_->setText(warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
    warningsButton_->setIcon(
        warnings ? warningsButton_->style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
}

QString WindowStatus::text() const {
    return QStringList{cursor_->text(), span_->text(), slices_->text(), loadTime_->text(),
                       warningsButton_->text()}
        .join(QStringLiteral(" \u00b7 "));
}

} // namespace strata
