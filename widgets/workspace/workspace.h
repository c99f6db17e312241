#pragma once
// What a window shows, said explicitly (Shown): nothing, one trace, the ranks of a job (their
// merged trace; or, known by their digests alone, their report without a trace), or a baseline
// and a candidate compared (their merged trace). Whatever it is, the timeline and the docks see
// one trace, the current one (a set is merged into one: core/io/set/trace_set_merge.h), and
// observe this object instead of being handed it: currentChanged when the trace shown changes,
// shownChanged when what kind of content it is changes, currentReplaced so that what was computed
// of the trace before is let go. Showing one kind lets the others go (a window shows one trace, a
// set of ranks or a comparison, never two). A slice that leaves the model for the GUI says which
// trace it is in (TraceSliceRef). The analyses of the trace shown, and the settings they follow,
// are its Analyses (analyses.h); the set shown is its RankSet or TraceComparison.
#include "meta_types.h"
#include "model/trace.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

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

// What a window shows.
enum class Shown : uint8_t {
    Nothing,
    Trace,      // one trace (a file)
    Ranks,      // the ranks of a job, merged into one trace (ranks())
    RankReport, // the ranks of a job known by their digests: their report, no trace
    Comparison, // a baseline over a candidate, merged into one trace (comparison())
};

struct OpenTrace {
    TraceId id = kNoTrace;
    std::shared_ptr<const Trace> trace;
    QString label;  // what the window calls it (the file name, "8 ranks")
    QString path;   // the file (or folder) it came from, if any
    QString format; // the reader that read it (LoadResult::format), if any
    qint64 loadMs = 0;
};

class Workspace : public QObject {
    Q_OBJECT
public:
    explicit Workspace(QObject* parent = nullptr);

    // The analyses of the trace shown (gap causes, statistics, ...) and the settings they follow.
    Analyses* analyses() const { return analyses_; }
    // The ranks of a job when the window shows them (rank_set.h); empty else.
    RankSet* ranks() const { return ranks_; }
    // A baseline and a candidate compared (trace_comparison.h); empty else.
    TraceComparison* comparison() const { return comparison_; }
    Shown shown() const { return shown_; }

    // One trace shown (Shown::Trace): the ranks and the comparison let go.
    TraceId showTrace(std::shared_ptr<const Trace> trace, QString label = {}, QString path = {},
                      qint64 loadMs = 0, QString format = {});
    // A set's merged trace shown as `what` (Ranks or Comparison), by the set itself
    // (merged_set.h); the other set let go.
    void showSet(Shown what, std::shared_ptr<const Trace> trace, QString label, QString path,
                 qint64 loadMs, QString format);
    // The ranks' report alone (Shown::RankReport): no trace shown, the comparison let go.
    void showRankReport();
    // The trace shown amended: the same trace with more in it (timer sections imported into it:
    // Trace::withSectionsOf; its GPU shifted; a set's parts moved), keeping its label and file.
    // Views follow as for a replacement, but where the user is (visible range, selection) stays:
    // amending() is true while they hear of it.
    // `loadMs` >= 0: how long this version took to read (a live run's next picture).
    void amendCurrent(std::shared_ptr<const Trace> trace, qint64 loadMs = -1);
    bool amending() const { return amending_; }
    // What a trace being loaded has read so far (io/load_preview_trace.h), shown as the trace
    // while nothing else is (the window idle): the timeline draws it as the loaded trace's first
    // frames; it has no analysis (Analyses::of), so the docks show nothing of it; nothing may be
    // exported or kept of it. The next preview amends it (a view of all of it stays one); the
    // loaded trace replaces it (showTrace), or dropPreview() lets it go when the load fails or is
    // cancelled. `label`: the file's name.
    void showPreview(std::shared_ptr<const Trace> preview, QString label);
    void dropPreview();
    bool previewing() const { return previewing_ && current_.trace; }

    // A live run is shown (app/gui/actions/live_feed.h): its trace is amended several times a
    // second, and the docks keep what they show until refreshLive() asks them again (or the run
    // ends).
    void setLive(bool on);
    bool live() const { return live_; }
    void refreshLive() { emit liveRefreshRequested(); }

    TraceId currentId() const { return current_.trace ? current_.id : kNoTrace; }
    const OpenTrace* currentTrace() const { return current_.trace ? &current_ : nullptr; }
    std::shared_ptr<const Trace> current() const { return current_.trace; } // null: none
    // The current trace's slice `r` as a reference that carries the trace.
    TraceSliceRef ref(SliceRef r) const {
        return r.valid() ? TraceSliceRef{currentId(), r} : TraceSliceRef{};
    }

signals:
    // The trace `id` was replaced or let go: what was computed of it is stale.
    void currentReplaced(strata::TraceId id);
    // The trace the window shows changed; null when none is shown.
    void currentChanged(std::shared_ptr<const strata::Trace> trace);
    void shownChanged(strata::Shown shown);
    void liveChanged(bool live);
    // The docks of a live run are asked to show the trace as it is now.
    void liveRefreshRequested();

private:
    void setShown(Shown what);
    void replace(std::shared_ptr<const Trace> trace, QString label, QString path, qint64 loadMs,
                 QString format);
    Analyses* analyses_;
    RankSet* ranks_;
    TraceComparison* comparison_;
    Shown shown_ = Shown::Nothing;
    bool amending_ = false;
    bool live_ = false;
    bool previewing_ = false;
    OpenTrace current_;
    TraceId nextId_ = 0;
};

} // namespace strata

Q_DECLARE_METATYPE(strata::TraceSliceRef)
