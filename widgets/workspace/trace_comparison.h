#pragma once
// Two runs compared in one window (docs/compare.md): a baseline and a candidate trace, each
// whole, one of its steps or a range of it (two ranges of one trace: Edit > Compare Range); their
// difference (core/analysis/trace_diff.h: the same one
// strata-cli diff prints), computed off the GUI thread; and the two shown one above the other as
// one trace (core/io/set/trace_set_merge.h: the candidate's groups "candidate: GPU 0" under the
// baseline's "baseline: GPU 0"), the candidate shifted so that its chosen step (or its start)
// begins where the baseline's does, so one scroll and one zoom move both. The merged trace
// becomes the workspace's current trace. The difference follows the analysis settings.
#include "analysis/compare/trace_diff.h"
#include "job_runner.h"
#include "workspace.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace strata {

struct ComparedTrace {
    QString path;
    std::shared_ptr<const Trace> trace;
    QString step; // "" = the whole trace (or `range`), else the name of one of its steps
    std::optional<TimeRange> range; // a range of it (when no step is chosen)
};

class TraceComparison : public QObject {
    Q_OBJECT
public:
    explicit TraceComparison(Workspace* workspace);

    bool isEmpty() const { return !baseline_.trace || !candidate_.trace; }
    const ComparedTrace& baseline() const { return baseline_; }
    const ComparedTrace& candidate() const { return candidate_; }
    // Null while it is computed (or when nothing is compared).
    std::shared_ptr<const TraceDiff> diff() const { return diff_; }
    // The names of a side's steps (ProfilerStep#N, or the settings' step name), by start.
    QStringList steps(bool candidate) const;
    // The range a side is compared over: its step's, else its range; none for the whole trace.
    std::optional<TimeRange> range(bool candidate) const {
        return rangeOf(candidate ? candidate_ : baseline_);
    }
    // The candidate's shift on the merged timeline (added to its timestamps).
    TimeNs candidateOffset() const { return offset_; }

    // `loadMs`: how long loading the two took (the status bar's).
    void set(ComparedTrace baseline, ComparedTrace candidate, qint64 loadMs = 0);
    // One side compared over one step ("" = the whole trace); an unknown name is the whole trace.
    void setStep(bool candidate, const QString& step);
    void clear();
    void waitForFinished(); // screenshots, tests

signals:
    void changed(); // what is compared (the diff follows with diffReady)
    void diffReady();
    void merged(); // the two, one above the other, are the workspace's current trace

private:
    void update(bool sameTracks);
    std::optional<TimeRange> rangeOf(const ComparedTrace& side) const;
    Workspace* workspace_;
    JobRunner* diffJob_;
    JobRunner* mergeJob_;
    ComparedTrace baseline_, candidate_;
    std::shared_ptr<const TraceDiff> diff_;
    TimeNs offset_ = 0;
    qint64 loadMs_ = 0;
};

} // namespace strata
