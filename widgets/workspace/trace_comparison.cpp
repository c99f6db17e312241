#include "trace_comparison.h"

#include "analyses.h"
#include "analysis/trace_analysis.h"
#include "analysis/trace_steps.h"
#include "merged_set.h"

#include <QFileInfo>
#include <QStringList>

namespace strata {

TraceComparison::TraceComparison(Workspace* workspace)
    : QObject(workspace), workspace_(workspace), diffJob_(new JobRunner(this)),
      mergeJob_(new JobRunner(this)) {
    connect(workspace_->analyses(), &Analyses::settingsChanged, this, [this] {
        if (!isEmpty()) update(true);
    });
}

QStringList TraceComparison::steps(bool candidate) const {
    const ComparedTrace& side = candidate ? candidate_ : baseline_;
    QStringList out;
    if (!side.trace) return out;
    for (const TraceStep& s : findSteps(*side.trace, workspace_->analyses()->settings().stepPrefix))
        out << QString::fromStdString(s.name);
    return out;
}

std::optional<TimeRange> TraceComparison::rangeOf(const ComparedTrace& side) const {
    if (!side.trace) return std::nullopt;
    if (side.step.isEmpty()) return side.range;
    for (const TraceStep& s : findSteps(*side.trace, workspace_->analyses()->settings().stepPrefix))
        if (QString::fromStdString(s.name) == side.step) return TimeRange{s.start, s.end};
    return std::nullopt;
}

void TraceComparison::set(ComparedTrace baseline, ComparedTrace candidate, qint64 loadMs) {
    loadMs_ = loadMs;
    baseline_ = std::move(baseline);
    candidate_ = std::move(candidate);
    update(false);
}

void TraceComparison::setStep(bool candidate, const QString& step) {
    ComparedTrace& side = candidate ? candidate_ : baseline_;
    side.step = step;
    side.range.reset(); // a step, or the whole trace
    update(true);
}

void TraceComparison::clear() {
    diffJob_->cancel();
    mergeJob_->cancel();
    if (isEmpty()) return;
    baseline_ = candidate_ = ComparedTrace{};
    diff_.reset();
    emit changed();
}

void TraceComparison::waitForFinished() {
    diffJob_->waitForFinished();
    mergeJob_->waitForFinished();
}

void TraceComparison::update(bool sameTracks) {
    diff_.reset();
    if (isEmpty()) return;
    const std::optional<TimeRange> b = rangeOf(baseline_), c = rangeOf(candidate_);
    // The candidate's step or range (or start) begins where the baseline's does.
    const TimeNs bStart = b ? b->start : baseline_.trace->contentBounds().start;
    const TimeNs cStart = c ? c->start : candidate_.trace->contentBounds().start;
    offset_ = bStart - cStart;
    emit changed();

    const AnalysisSettings settings = workspace_->analyses()->settings();
    const auto base = baseline_.trace, cand = candidate_.trace;
    diffJob_->run(
        [base, cand, settings, b, c](JobControl&) {
            const TraceAnalysis ba(base, settings, b.value_or(wholeTrace()));
            const TraceAnalysis ca(cand, settings, c.value_or(wholeTrace()));
            // Two steps of one run: its steps measure the spread (trace_diff.h).
            std::optional<TraceAnalysis> whole;
            if (base == cand && (b || c)) whole.emplace(base, settings);
            return std::make_shared<const TraceDiff>(diffTraces(ba, ca, whole ? &*whole : nullptr));
        },
        [this](std::shared_ptr<const TraceDiff> d) {
            diff_ = std::move(d);
            emit diffReady();
        });

    const QString name =
        tr("%1 vs %2")
            .arg(QFileInfo(baseline_.path).fileName(), QFileInfo(candidate_.path).fileName());
    showMerged(
        mergeJob_, workspace_,
        {{base, "baseline", 0, baseline_.path.toStdString()},
         {cand, "candidate", offset_, candidate_.path.toStdString()}},
        {Shown::Comparison, name, candidate_.path, QStringLiteral("compare"), loadMs_, sameTracks},
        [this](MergeLayout) { emit merged(); });
}

} // namespace strata
