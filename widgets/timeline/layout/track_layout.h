#pragma once
// The track tree: groups (processes, GPU devices, global) of rows (threads, GPU streams, device
// idle, counters, async tracks, instants), their order, names, collapsed state and vertical
// positions. A row shows several tracks when a thread or stream has overflow lanes. A CPU
// thread's levels that hold one slice each across the view are folded (level_folds.h), its
// instants drawn in a strip above its slices, its sampled stacks in a lane below them (a thread
// with samples alone gets a row of just that lane); each GPU with recorded allocations gets a
// memory row.
#include "level_folds.h"
#include "model/trace.h"

#include <QString>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace strata {

struct TrackRow {
    enum class Kind {
        Group,
        Slices,
        Counter,
        Instants,
        DeviceIdle,
        Sections,
        Utilisation,
        Memory,
        Queue,  // a GPU stream's launch queue length, under its row
        Samples // a thread with sampled stacks and no track: its sample lane alone
    };
    Kind kind = Kind::Slices;
    int group = -1;
    QString label;
    std::vector<TrackId> lanes;   // Slices: lane tracks in lane order; Counter/Instants: one track
    std::vector<int> laneY;       // y of each lane relative to the row top
    std::vector<int> laneDepths;  // levels shown per lane
    std::vector<int> fullDepths;  // depths each lane has
    std::vector<LaneFolds> folds; // per lane, at the visible range (used unless expanded)
    bool thread = false;          // a CPU thread: folded, to kDepthCap levels, unless expanded
    bool expanded = false;
    bool instants = false; // a thread with instants: drawn in a strip above its slices
    int hiddenLevels = 0;  // levels beyond the cap, not shown (0 when expanded)
    int foldedDepths = 0;  // depths folded into fewer levels (0 when expanded)
    bool hidden = false;   // hidden by the user (right-click > Hide Track)
    bool pinned = false;   // pinned to the top of the tracks, above every group
    int32_t device = -1;   // GPU stream rows, the device idle row and its sections row
    int64_t stream = -1;   // GPU stream rows and their queue rows
    int smLanes = 0;       // Sections: SM lanes shown when expanded
    bool gpuStream = false;
    // Index in Trace::stackSamples().threads of the thread's samples, drawn in a lane below its
    // slices (a Samples row: the lane alone); -1 none.
    int sampleThread = -1;
    int y = 0;      // content coordinates; valid when shown
    int height = 0; // 0 when hidden (group collapsed)
};

struct TrackGroup {
    QString label;
    bool gpu = false;
    int32_t device = -1;
    int64_t pid = 0;
    bool collapsed = false;
    int headerRow = -1;
    // A rank of a set folded into one row (setRankFolded): its first group's header reads
    // `rankLabel` and shows the busy/idle of the rank's first GPU (`summaryGpu`, a group index);
    // its other groups are `folded` away, headers too.
    QString rankPrefix, rankLabel;
    int summaryGpu = -1;
    bool folded = false;
    bool hidden = false; // hidden by the user, header and rows (its pinned rows stay)
};

class TrackLayout {
public:
    static constexpr int kDepthHeight = 18;
    static constexpr int kGapStrip = 6;
    static constexpr int kHeaderHeight = 22;
    static constexpr int kCounterHeight = 36;
    static constexpr int kIdleHeight = 12;
    static constexpr int kInstantHeight = 14;
    static constexpr int kRowPad = 3;
    static constexpr int kDepthCap = 24;          // levels a CPU thread shows until it is expanded
    static constexpr int kSectionsHeader = 16;    // a Sections row's launch strip
    static constexpr int kUtilisationHeight = 22; // a device's GPU utilisation row
    static constexpr int kQueueHeight = 22;       // a stream's launch queue row
    static constexpr int kSmLaneHeight = 4;       // one SM's lane in an expanded Sections row
    static constexpr int kMemoryHeight = 40;      // a device's memory row
    static constexpr int kSampleHeight = 10;      // a thread's lane of sampled stacks
    static constexpr int kSampleRowHeight = 16;   // the lane of a Samples row (a label's height)

    // The rows and groups of a trace (expanded rows and collapsed groups reset).
    void build(const Trace& trace);
    // The same, keeping which rows are expanded and which groups collapsed (after an option
    // that changes the order).
    void rebuild(const Trace& trace);
    void clear();

    // GPU devices (and their streams, with the idle rows) before the CPU processes: on by
    // default, so the GPU is in view when a trace opens whatever the CPU stacks' depth.
    void setGpuFirst(bool on) { gpuFirst_ = on; }
    // A "GPU utilisation" row under each device's idle row (off by default; rebuild() applies it).
    void setShowUtilisation(bool on) { showUtilisation_ = on; }
    bool showUtilisation() const { return showUtilisation_; }
    // A launch queue row under each GPU stream's row (off by default; rebuild() applies it).
    void setShowQueues(bool on) { showQueues_ = on; }
    bool showQueues() const { return showQueues_; }
    bool gpuFirst() const { return gpuFirst_; }
    // The devices that get a memory row in their group (analysis/memory_usage.h); rebuild()
    // applies it. A collector counter of a device's allocations is then shown there alone.
    void setMemoryDevices(std::vector<int32_t> devices) { memoryDevices_ = std::move(devices); }
    const std::vector<int32_t>& memoryDevices() const { return memoryDevices_; }
    // The folds of every CPU thread's lanes (foldsOf(lane track), at the visible range: nullopt
    // keeps a lane's folds as they are); true when any changed (the rows below move).
    template <typename FoldsOf> bool applyFolds(FoldsOf foldsOf);
    void setExpanded(int row, bool on);
    void setAllExpanded(bool on);
    // A row hidden (0 high) until shown again; showAll() shows every hidden row and group.
    void setHidden(int row, bool on);
    void showAll();
    int hiddenCount() const; // hidden rows and groups
    // A whole group hidden, its header too (its pinned rows stay on top), or shown again.
    void setGroupHidden(int group, bool on);
    // A track's row moved one place up (delta < 0) or down among its siblings shown: pinned rows
    // among the pinned, others within their group (a GPU stream with its launch queue row). Row
    // indices change (rowOfTrack). False when it has no neighbour that way.
    bool moveRow(int row, int delta);
    bool canMove(int row, int delta) const { return neighbour(row, delta) >= 0; }
    // Groups whose rows the user moved (their order is kept: track_arrangement.h).
    bool reordered(int group) const;
    // The movable rows of a group (not pinned) stably sorted by rank(row): a saved order applied.
    template <typename Rank> void orderGroup(int group, Rank rank);
    // A row moved to the top of the tracks (pinned rows in the order they were pinned), or back
    // to the end of its group. Row indices change: look rows up again (rowOfTrack).
    void setPinned(int row, bool on);

    const std::vector<TrackRow>& rows() const { return rows_; }
    const std::vector<TrackGroup>& groups() const { return groups_; }
    bool collapsed(int group) const { return groups_[group].collapsed; }
    // Collapsing the summary row of a folded rank off unfolds the rank.
    void setCollapsed(int group, bool on);
    // Every group whose label starts with `prefix` ("rank 3 · node7: ") folded into one summary
    // row, or back to their groups, expanded.
    void setRankFolded(const QString& prefix, bool on);
    static constexpr int kSummaryHeight = kHeaderHeight + kIdleHeight + kRowPad;
    int contentHeight() const { return height_; }

    // Shown row at content y, or -1.
    int rowAt(int y) const;
    int rowOfTrack(TrackId t) const { return t < rowOfTrack_.size() ? rowOfTrack_[t] : -1; }
    // Content y of the top of `depth` on track t, or -1 when the track is not shown.
    int sliceY(TrackId t, uint16_t depth) const;
    // Which lane track and depth lie at content y inside a slices row; false if none. On a
    // folded level: its innermost depth, and the fold in *fold when asked.
    bool laneDepthAt(int row, int y, TrackId* track, uint16_t* depth,
                     DepthFold* fold = nullptr) const;
    // The content y of a row's instant strip, or -1 when it has none.
    int instantsY(int row) const;
    // The content y of a row's sample lane, or -1 when it has none; its height in *height
    // (kSampleHeight under slices, kSampleRowHeight in a Samples row) when asked.
    int samplesY(int row, int* height = nullptr) const;

private:
    static bool movable(const TrackRow& r);
    int blockEnd(int row) const; // past a row and the launch queue row under it
    int neighbour(int row, int delta) const;
    void moveBlocks(int group, std::vector<std::pair<int, int>> blocks); // group's, reordered
    void relayout();
    void addSectionsRow(const Trace& trace, int group); // a device with in-kernel sections
    void addDeviceRows(int group, int32_t device);
    TrackRow laneRow(const Trace& trace, int group, std::vector<TrackId>& ids);
    static TrackRow sampleOnlyRow(const Trace& trace, int group, int64_t pid, int64_t tid);
    void reindex(); // rowOfTrack_ and the groups' header rows after rows moved
    const LaneFolds* foldsOf(const TrackRow& r, size_t lane) const;
    bool gpuFirst_ = true;
    bool showUtilisation_ = false;
    bool showQueues_ = false;
    std::vector<int32_t> memoryDevices_;
    std::vector<TrackRow> rows_;
    std::vector<TrackGroup> groups_;
    std::vector<int> rowOfTrack_;
    std::vector<int> laneOfTrack_;
    std::vector<int> shownRows_; // indices of rows with height > 0, in y order
    std::vector<int> reordered_; // groups whose rows the user moved
    int height_ = 0;
};

template <typename Rank> void TrackLayout::orderGroup(int group, Rank rank) {
    std::vector<std::pair<int, int>> blocks; // [begin, end) in rows_, in their order now
    for (int i = 0; i < static_cast<int>(rows_.size());) {
        const TrackRow& r = rows_[size_t(i)];
        if (r.group == group && !r.pinned && movable(r)) {
            blocks.emplace_back(i, blockEnd(i));
            i = blocks.back().second;
        } else {
            ++i;
        }
    }
    std::stable_sort(blocks.begin(), blocks.end(), [&](auto a, auto b) {
        return rank(rows_[size_t(a.first)]) < rank(rows_[size_t(b.first)]);
    });
    moveBlocks(group, std::move(blocks));
}

template <typename FoldsOf> bool TrackLayout::applyFolds(FoldsOf foldsOf) {
    bool changed = false;
    for (TrackRow& r : rows_) {
        if (!r.thread || r.kind != TrackRow::Kind::Slices) continue;
        std::vector<LaneFolds> folds;
        for (size_t l = 0; l < r.lanes.size(); ++l) {
            std::optional<LaneFolds> f = foldsOf(r.lanes[l]);
            folds.push_back(f ? std::move(*f) : l < r.folds.size() ? r.folds[l] : LaneFolds{});
        }
        if (folds != r.folds) {
            r.folds = std::move(folds);
            changed = true;
        }
    }
    if (changed) relayout();
    return changed;
}

} // namespace strata
