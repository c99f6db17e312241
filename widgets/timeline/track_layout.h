#pragma once
// The track tree: groups (processes, GPU devices, global) of rows (threads, GPU streams, device
// idle, counters, async tracks, instants), their order, names, collapsed state and vertical
// positions. A row shows several tracks when a thread or stream has overflow lanes.
#include "model/trace.h"

#include <QString>

#include <vector>

namespace strata {

struct TrackRow {
    enum class Kind { Group, Slices, Counter, Instants, DeviceIdle, Sections, Utilisation };
    Kind kind = Kind::Slices;
    int group = -1;
    QString label;
    std::vector<TrackId> lanes;  // Slices: lane tracks in lane order; Counter/Instants: one track
    std::vector<int> laneY;      // y of each lane relative to the row top
    std::vector<int> laneDepths; // levels shown per lane
    std::vector<int> fullDepths; // levels each lane has
    bool thread = false;         // a CPU thread: shown to kDepthCap levels unless expanded
    bool expanded = false;
    int hiddenLevels = 0; // levels beyond the cap, not shown (0 when expanded)
    bool hidden = false;  // hidden by the user (right-click > Hide Track)
    bool pinned = false;  // pinned to the top of the tracks, above every group
    int32_t device = -1;  // GPU stream rows, the device idle row and its sections row
    int smLanes = 0;      // Sections: SM lanes shown when expanded
    bool gpuStream = false;
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
    static constexpr int kDepthCap = 12;          // levels a CPU thread shows until it is expanded
    static constexpr int kSectionsHeader = 16;    // a Sections row's launch strip
    static constexpr int kUtilisationHeight = 22; // a device's GPU utilisation row
    static constexpr int kSmLaneHeight = 4;       // one SM's lane in an expanded Sections row

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
    bool gpuFirst() const { return gpuFirst_; }
    void setExpanded(int row, bool on);
    void setAllExpanded(bool on);
    // A row hidden (0 high) until shown again; showAll() shows every hidden row.
    void setHidden(int row, bool on);
    void showAll();
    int hiddenCount() const;
    // A row moved to the top of the tracks (pinned rows in the order they were pinned), or back
    // to the end of its group. Row indices change: look rows up again (rowOfTrack).
    void setPinned(int row, bool on);

    const std::vector<TrackRow>& rows() const { return rows_; }
    const std::vector<TrackGroup>& groups() const { return groups_; }
    bool collapsed(int group) const { return groups_[group].collapsed; }
    void setCollapsed(int group, bool on);
    int contentHeight() const { return height_; }

    // Shown row at content y, or -1.
    int rowAt(int y) const;
    int rowOfTrack(TrackId t) const { return t < rowOfTrack_.size() ? rowOfTrack_[t] : -1; }
    // Content y of the top of `depth` on track t, or -1 when the track is not shown.
    int sliceY(TrackId t, uint16_t depth) const;
    // Which lane track and depth lie at content y inside a slices row; false if none.
    bool laneDepthAt(int row, int y, TrackId* track, uint16_t* depth) const;

private:
    void relayout();
    void addSectionsRow(const Trace& trace, int group); // a device with in-kernel sections
    void reindex(); // rowOfTrack_ and the groups' header rows after rows moved
    bool gpuFirst_ = true;
    bool showUtilisation_ = false;
    std::vector<TrackRow> rows_;
    std::vector<TrackGroup> groups_;
    std::vector<int> rowOfTrack_;
    std::vector<int> laneOfTrack_;
    std::vector<int> shownRows_; // indices of rows with height > 0, in y order
    int height_ = 0;
};

} // namespace strata
