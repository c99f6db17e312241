#pragma once
// The traces a window has open (one today; several ranks or a baseline and a candidate later),
// with their labels, files and clock offsets. Views observe it instead of being handed a trace:
// traceAdded / traceRemoved / traceReplaced for each trace, currentChanged when the trace the
// window shows changes. A slice that leaves the model for the GUI says which trace it is in
// (TraceSliceRef). Their analyses, and the settings those follow, are its Analyses (analyses.h).
#include "meta_types.h"
#include "model/trace.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace strata {

class Analyses;
class RankSet;
class TraceComparison;
using TraceId = uint32_t;
constexpr TraceId kNoTrace = UINT32_MAX;

struct TraceSliceRef {
    TraceId trace = kNoTrace;
    SliceRef slice;
    bool valid() const { return trace != kNoTrace && slice.valid(); }
    friend bool operator==(const TraceSliceRef&, const TraceSliceRef&) = default;
};

struct OpenTrace {
    TraceId id = kNoTrace;
    std::shared_ptr<const Trace> trace;
    QString label;          // what the window calls it (the file name, a rank)
    QString path;           // the file it came from, if any
    QString format;         // the reader that read it (LoadResult::format), if any
    TimeNs clockOffset = 0; // added to its times to line it up with the others
    qint64 loadMs = 0;
};

class Workspace : public QObject {
    Q_OBJECT
public:
    explicit Workspace(QObject* parent = nullptr);

    // The analyses of these traces (gap causes, statistics, ...) and the settings they follow.
    Analyses* analyses() const { return analyses_; }
    // The ranks of a job when the window shows several traces as one (rank_set.h); empty else.
    RankSet* ranks() const { return ranks_; }
    // A baseline and a candidate compared (trace_comparison.h); empty else.
    TraceComparison* comparison() const { return comparison_; }

    // Adds a trace and makes it current.
    TraceId add(std::shared_ptr<const Trace> trace, QString label = {}, QString path = {},
                qint64 loadMs = 0, QString format = {});
    // The one-trace window: the current trace is replaced (keeping its id), or added if none.
    TraceId replaceCurrent(std::shared_ptr<const Trace> trace, QString label = {},
                           QString path = {}, qint64 loadMs = 0, QString format = {});
    // The current trace amended: the same trace with more in it (timer sections imported into
    // it: Trace::withSectionsOf), keeping its label, file and clock offset. Views follow as for a
    // replacement, but where the user is (visible range, selection) stays: amending() is true
    // while they hear of it.
    void amendCurrent(std::shared_ptr<const Trace> trace);
    bool amending() const { return amending_; }
    void remove(TraceId id);
    void setClockOffset(TraceId id, TimeNs offset);

    const std::vector<OpenTrace>& traces() const { return traces_; }
    const OpenTrace* find(TraceId id) const;
    TraceId currentId() const { return current_; }
    const OpenTrace* currentTrace() const { return find(current_); }
    std::shared_ptr<const Trace> current() const; // null when nothing is open
    // The current trace's slice `r` as a reference that carries the trace.
    TraceSliceRef ref(SliceRef r) const {
        return r.valid() ? TraceSliceRef{current_, r} : TraceSliceRef{};
    }

signals:
    void traceAdded(strata::TraceId id);
    void traceRemoved(strata::TraceId id);
    void traceReplaced(strata::TraceId id);
    void clockOffsetChanged(strata::TraceId id);
    // The trace the window shows changed (added, replaced, removed); null when none is left.
    void currentChanged(std::shared_ptr<const strata::Trace> trace);

private:
    OpenTrace* findMutable(TraceId id);
    Analyses* analyses_;
    RankSet* ranks_;
    TraceComparison* comparison_;
    bool amending_ = false;
    std::vector<OpenTrace> traces_;
    TraceId current_ = kNoTrace;
    TraceId nextId_ = 0;
};

} // namespace strata

Q_DECLARE_METATYPE(strata::TraceSliceRef)
