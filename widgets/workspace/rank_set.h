#pragma once
// The ranks of a distributed job open in one window (docs/ranks.md): each rank's trace and its
// digest (core/analysis/rank_digest.h), the clock alignment asked for, the cross-rank report
// (core/analysis/cross_rank.h: the same one strata-cli ranks prints) and the set shown as one
// trace (core/io/set/trace_set_merge.h: the ranks shifted by their offsets, each a group of
// tracks "rank 3 · host: python", "rank 3 · host: GPU 0"), which becomes the workspace's current
// trace, so that the timeline and every dock show the set. A set of digests (strata-cli digest)
// is the report alone: no trace is read, the settings they were made with hold. Adding or removing
// a rank, another alignment method or an offset edited by hand recompute the report at once (it
// reads the digests) and the merged trace off the GUI thread. The digests follow the analysis
// settings (the gap threshold, the step name): they are made again when those change.
//
// Memory: once merged, the ranks' own traces are let go (the window holds the set once, not
// twice). Another alignment moves the merged trace's parts (shiftMergedParts: no file is read);
// adding or removing a rank, or new analysis settings, read the ranks' files again (in parallel,
// as they were opened); a file that cannot be read then is said (mergeFailed).
#include "analysis/ranks/cross_rank.h"
#include "io/set/trace_set_merge.h"
#include "job_runner.h"
#include "workspace.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace strata {

class TraceCache; // io/cache/trace_cache.h

struct SetRank {
    QString path;
    std::shared_ptr<const Trace> trace; // null once merged (read again from `path` when needed)
    RankDigest digest;
    // Known by the digest `strata-cli digest` made (a cluster's job): `path` is the trace the
    // digest names (found beside the digest when the name is relative), which may not be here.
    bool fromDigest = false;
};

// The set's files digested as strata-cli digests them (io/set/digest_set.h: loaded on all cores,
// each digested on the thread that loaded it, a digest `strata-cli digest` wrote read as it is);
// a file that did not load or digest (a digest that holds an error) is said in `errors`
// ("file: why") and left out.
// Read through `cache` when given (io/set/trace_set_loader.h), which is left for the caller to
// write: `keep` holds the traces it may keep (LoadResult::cacheSource set, its path the file's).
struct RankSetLoad {
    std::vector<SetRank> ranks;
    QStringList errors;
    qint64 ms = 0;        // wall time of the load and the digests
    size_t fromCache = 0; // traces read from the cache's entries
    std::vector<LoadResult> keep;
};
// "1 rank", "8 ranks".
QString rankCount(size_t n);

RankSetLoad loadRankSet(const QStringList& paths, const AnalysisSettings& settings,
                        JobControl& control, const TraceCache* cache = nullptr);

class RankSet : public QObject {
    Q_OBJECT
public:
    explicit RankSet(Workspace* workspace);

    bool isEmpty() const { return ranks_.empty(); }
    // In rank order; report().ranks[i] is ranks()[i].
    const std::vector<SetRank>& ranks() const { return ranks_; }
    const CrossRankReport& report() const { return report_; }
    const AlignRequest& request() const { return request_; }
    // The label of rank i in the merged trace ("rank 3 · node7"): its groups' prefix.
    QString label(size_t i) const;
    // Every rank's, in one pass (label(i) is O(ranks) each).
    QStringList labels() const;
    // A time of the report (from its origin) on the merged trace's clock.
    TimeNs traceTime(TimeNs fromOrigin) const { return report_.origin + fromOrigin; }
    bool merging() const { return merge_->isRunning(); }
    // A set known by digests (SetRank::fromDigest; a cluster's job reduced where it ran): the
    // report and the Ranks dock only, no merged timeline; a rank's trace opens on its own.
    bool fromDigests() const;

    // The window now shows this set; `loadMs`: how long it took to load (the status bar's).
    void setRanks(std::vector<SetRank> ranks, qint64 loadMs = 0);
    void addRanks(std::vector<SetRank> ranks);
    void removeRank(size_t index);
    void setAlignment(AlignRequest request);
    // The offset of rank i set by hand (the others keep theirs): the alignment becomes manual.
    void setOffset(size_t index, TimeNs offset);
    void clear(); // the window shows one trace again (nothing is merged)
    // Asks the timeline to collapse (or expand) every group of rank i's tracks.
    void requestCollapse(size_t index, bool collapsed) {
        if (index < ranks_.size())
            emit collapseRequested(label(index) + QStringLiteral(": "), collapsed);
    }
    void waitForMerge() { merge_->waitForFinished(); } // screenshots, tests

signals:
    void changed(); // the ranks, the alignment or the report
    void mergeStarted();
    void merged(); // the merged trace is the workspace's current trace
    // Every track group whose label starts with `prefix` ("rank 3: ") collapsed or expanded.
    void collapseRequested(const QString& prefix, bool collapsed);
    // A rank's file could not be read again (moved, changed): the set shown stays as it was.
    void mergeFailed(const QString& why);

private:
    void update(bool sameTracks);
    void redigest();
    void mergedAs(MergeLayout layout, std::vector<TimeNs> offsets);
    Workspace* workspace_;
    JobRunner* merge_;
    JobRunner* digest_;
    std::vector<SetRank> ranks_;
    AlignRequest request_;
    CrossRankReport report_;
    qint64 loadMs_ = 0;
    // The merged trace the workspace shows: where each track came from and the offsets it has.
    MergeLayout layout_;
    std::vector<TimeNs> shownOffsets_;
};

} // namespace strata
