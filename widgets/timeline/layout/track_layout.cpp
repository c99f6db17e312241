#include "track_layout.h"

#include "analysis/memory_usage.h"
#include "analysis/ops/gpu_metric_means.h"
#include "model/names/track_names.h"
#include "style/qt_text.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace strata {

namespace {

struct GroupKey {
    int section;   // with the GPU first: 0 GPU, 1 CPU, 2 global; else 0 and 2
    int rank;      // 0: has a sort index, 1: CPU without, 2: GPU without, 3: global
    int64_t index; // sort index
    int gpu;       // CPU before GPU on equal sort index
    int64_t id;    // pid or device
    bool operator<(const GroupKey& o) const {
        return std::tie(section, rank, index, gpu, id) <
               std::tie(o.section, o.rank, o.index, o.gpu, o.id);
    }
};
struct Pending {
    TrackGroup g;
    std::map<std::tuple<int, int64_t, int64_t>, std::vector<TrackId>> rows; // (order, a, b)
};

// The tracks of each group, the groups in display order; each group's rows by (order, a, b).
std::map<GroupKey, Pending> collectGroups(const Trace& trace, bool gpuFirst,
                                          const std::vector<int32_t>& memoryDevices) {
    const auto& tracks = trace.tracks();
    std::map<GroupKey, Pending> pend;
    std::map<int64_t, GroupKey> cpuKey;
    std::map<int32_t, GroupKey> gpuKey;
    std::set<std::pair<int64_t, int64_t>> threadTracks; // (pid, tid) of the thread tracks
    auto cpuGroup = [&](int64_t pid) -> Pending& {
        auto it = cpuKey.find(pid);
        if (it == cpuKey.end()) {
            const Process* p = trace.process(pid);
            GroupKey k{gpuFirst ? 1 : 0, p && p->hasSortIndex ? 0 : 1,
                       p && p->hasSortIndex ? p->sortIndex : 0, 0, pid};
            it = cpuKey.emplace(pid, k).first;
            Pending& pg = pend[k];
            pg.g.label = toQString(processGroupName(trace, pid));
            pg.g.pid = pid;
        }
        return pend[it->second];
    };
    auto gpuGroup = [&](int32_t device, int64_t pid) -> Pending& {
        auto it = gpuKey.find(device);
        if (it == gpuKey.end()) {
            const Process* p = trace.process(pid);
            GroupKey k{0, p && p->hasSortIndex ? 0 : 2, p && p->hasSortIndex ? p->sortIndex : 0, 1,
                       device};
            it = gpuKey.emplace(device, k).first;
            Pending& pg = pend[k];
            pg.g.label = toQString(deviceGroupName(trace, device));
            pg.g.gpu = true;
            pg.g.device = device;
            pg.g.pid = pid;
        }
        return pend[it->second];
    };
    for (TrackId id = 0; id < tracks.size(); ++id) {
        const Track& t = tracks[id];
        switch (t.kind) {
        case TrackKind::Thread: {
            threadTracks.emplace(t.pid, t.tid);
            const Thread* th = trace.thread(t.pid, t.tid);
            const int64_t order = th && th->hasSortIndex ? th->sortIndex : INT64_MAX;
            cpuGroup(t.pid).rows[{0, order, t.tid}].push_back(id);
            break;
        }
        case TrackKind::GpuStream:
            gpuGroup(t.device, t.pid).rows[{1, t.tid, 0}].push_back(id);
            break;
        case TrackKind::Async:
            cpuGroup(t.pid).rows[{1, t.name, static_cast<int64_t>(t.cookie)}].push_back(id);
            break;
        case TrackKind::Counter: {
            // A device's allocations from the collector are drawn in its memory row.
            const int32_t memory = memoryCounterDevice(trace.str(t.name));
            if (memory >= 0 && std::find(memoryDevices.begin(), memoryDevices.end(), memory) !=
                                   memoryDevices.end())
                break;
            // A GPU metric goes under its GPU, below the streams.
            if (const auto metric = gpuMetricOf(trace.str(t.name))) {
                gpuGroup(metric->first, t.pid).rows[{2, t.name, 0}].push_back(id);
                break;
            }
            cpuGroup(t.pid).rows[{2, t.name, 0}].push_back(id);
            break;
        }
        case TrackKind::ProcessInstants:
            cpuGroup(t.pid).rows[{3, 0, 0}].push_back(id);
            break;
        case TrackKind::GlobalInstants: {
            Pending& g = pend[GroupKey{2, 3, 0, 0, 0}];
            g.g.label = QStringLiteral("Global");
            g.rows[{3, 0, 0}].push_back(id);
            break;
        }
        }
    }

    // A thread with sampled stacks and no track: a row of its sample lane alone (no ids).
    const StackSamples& samples = trace.stackSamples();
    for (const SampleThread& st : samples.threads) {
        if (threadTracks.count({st.pid, st.tid})) continue;
        const Thread* th = trace.thread(st.pid, st.tid);
        const int64_t order = th && th->hasSortIndex ? th->sortIndex : INT64_MAX;
        cpuGroup(st.pid).rows[{0, order, st.tid}];
    }

    return pend;
}

} // namespace

void TrackLayout::clear() {
    rows_.clear();
    groups_.clear();
    rowOfTrack_.clear();
    laneOfTrack_.clear();
    shownRows_.clear();
    reordered_.clear();
    height_ = 0;
}

void TrackLayout::build(const Trace& trace) {
    clear();
    const auto& tracks = trace.tracks();
    std::map<GroupKey, Pending> pend = collectGroups(trace, gpuFirst_, memoryDevices_);
    rowOfTrack_.assign(tracks.size(), -1);
    laneOfTrack_.assign(tracks.size(), -1);
    for (auto& [key, pg] : pend) {
        const int gi = static_cast<int>(groups_.size());
        pg.g.headerRow = static_cast<int>(rows_.size());
        groups_.push_back(pg.g);
        TrackRow header;
        header.kind = TrackRow::Kind::Group;
        header.group = gi;
        header.label = pg.g.label;
        header.device = pg.g.device;
        rows_.push_back(header);
        if (pg.g.gpu) addDeviceRows(gi, pg.g.device);
        for (auto& [rk, ids] : pg.rows) {
            if (ids.empty()) {
                rows_.push_back(sampleOnlyRow(trace, gi, pg.g.pid, std::get<2>(rk)));
                continue;
            }
            rows_.push_back(laneRow(trace, gi, ids));
            if (rows_.back().gpuStream && showQueues_) { // its launch queue under it
                TrackRow q;
                q.kind = TrackRow::Kind::Queue;
                q.group = gi;
                q.device = rows_.back().device;
                q.stream = rows_.back().stream;
                q.label = QStringLiteral("launch queue");
                rows_.push_back(q);
            }
        }
        if (pg.g.gpu) addSectionsRow(trace, gi);
    }
    relayout();
}

// The rows under a device's header: its idle row, its utilisation row when shown, its memory
// row when it has one.
void TrackLayout::addDeviceRows(int group, int32_t device) {
    auto add = [&](TrackRow::Kind kind, const char* label) {
        TrackRow r;
        r.kind = kind;
        r.group = group;
        r.device = device;
        r.label = QString::fromLatin1(label);
        rows_.push_back(r);
    };
    add(TrackRow::Kind::DeviceIdle, "GPU idle");
    if (showUtilisation_) add(TrackRow::Kind::Utilisation, "GPU utilisation");
    if (std::find(memoryDevices_.begin(), memoryDevices_.end(), device) != memoryDevices_.end())
        add(TrackRow::Kind::Memory, "Memory");
}

// The row of a thread, stream, async track, counter or instants, its lanes `ids` (sorted here by
// lane); the tracks' rows and lanes noted.
TrackRow TrackLayout::laneRow(const Trace& trace, int gi, std::vector<TrackId>& ids) {
    const auto& tracks = trace.tracks();
    const StackSamples& samples = trace.stackSamples();
    std::sort(ids.begin(), ids.end(),
              [&](TrackId a, TrackId b) { return tracks[a].lane < tracks[b].lane; });
    const Track& t0 = tracks[ids.front()];
    TrackRow r;
    r.group = gi;
    r.lanes = ids;
    r.label = toQString(trackRowName(trace, t0));
    r.thread = t0.kind == TrackKind::Thread;
    if (const SampleThread* st = r.thread ? samples.thread(t0.pid, t0.tid) : nullptr)
        r.sampleThread = static_cast<int>(st - samples.threads.data());
    if (t0.kind == TrackKind::GpuStream) {
        r.gpuStream = true;
        r.device = t0.device;
        r.stream = t0.tid;
    } else if (t0.kind == TrackKind::Counter) {
        r.kind = TrackRow::Kind::Counter;
        // Under its GPU, a GPU metric is named by its metric alone.
        if (const auto metric = gpuMetricOf(trace.str(t0.name)))
            r.label = QString::fromStdString(metric->second);
    } else if (t0.kind == TrackKind::ProcessInstants || t0.kind == TrackKind::GlobalInstants) {
        r.kind = TrackRow::Kind::Instants;
    }
    for (size_t l = 0; l < ids.size(); ++l) {
        r.instants |= r.thread && tracks[ids[l]].instants.size() > 0;
        r.fullDepths.push_back(
            r.kind == TrackRow::Kind::Slices ? std::max<int>(1, tracks[ids[l]].maxDepth) : 1);
        rowOfTrack_[ids[l]] = static_cast<int>(rows_.size());
        laneOfTrack_[ids[l]] = static_cast<int>(l);
    }
    return r;
}

TrackRow TrackLayout::sampleOnlyRow(const Trace& trace, int group, int64_t pid, int64_t tid) {
    const StackSamples& samples = trace.stackSamples();
    TrackRow r;
    r.kind = TrackRow::Kind::Samples;
    r.group = group;
    r.sampleThread = static_cast<int>(samples.thread(pid, tid) - samples.threads.data());
    r.label = toQString(threadRowName(trace, pid, tid));
    return r;
}

void TrackLayout::addSectionsRow(const Trace& trace, int group) {
    const int32_t device = groups_[size_t(group)].device;
    std::vector<uint16_t> sms;
    int launches = 0;
    for (const SectionSet& s : trace.sections()) {
        if (!s.hasTimes || s.device != device) continue;
        ++launches;
        for (const SectionSample& x : s.samples) sms.push_back(x.sm);
    }
    if (launches == 0) return;
    std::sort(sms.begin(), sms.end());
    TrackRow r;
    r.kind = TrackRow::Kind::Sections;
    r.group = group;
    r.device = device;
    r.smLanes = int(std::unique(sms.begin(), sms.end()) - sms.begin());
    r.label = QStringLiteral("In-kernel sections (%1 launch%2)")
                  .arg(launches)
                  .arg(launches == 1 ? "" : "es");
    rows_.push_back(std::move(r));
}

void TrackLayout::rebuild(const Trace& trace) {
    std::vector<TrackId> expanded, hidden, pinned;
    std::vector<QString> collapsed;
    for (const TrackRow& r : rows_) {
        if (r.lanes.empty()) continue;
        if (r.expanded) expanded.push_back(r.lanes.front());
        if (r.hidden) hidden.push_back(r.lanes.front());
        if (r.pinned) pinned.push_back(r.lanes.front());
    }
    std::vector<QString> foldedRanks, hiddenGroups;
    std::vector<std::pair<QString, std::vector<TrackId>>> orders; // reordered groups' rows
    for (size_t g = 0; g < groups_.size(); ++g) {
        if (groups_[g].collapsed) collapsed.push_back(groups_[g].label);
        if (groups_[g].hidden) hiddenGroups.push_back(groups_[g].label);
        if (!groups_[g].rankLabel.isEmpty()) foldedRanks.push_back(groups_[g].rankPrefix);
        if (!reordered(int(g))) continue;
        orders.emplace_back(groups_[g].label, std::vector<TrackId>{});
        for (const TrackRow& r : rows_)
            if (r.group == int(g) && !r.lanes.empty()) orders.back().second.push_back(r.lanes[0]);
    }
    build(trace);
    for (const auto& [label, order] : orders)
        for (size_t g = 0; g < groups_.size(); ++g)
            if (groups_[g].label == label)
                orderGroup(int(g), [&order = order](const TrackRow& r) {
                    const auto it = r.lanes.empty()
                                        ? order.end()
                                        : std::find(order.begin(), order.end(), r.lanes[0]);
                    return it - order.begin();
                });
    for (TrackGroup& g : groups_)
        g.hidden =
            std::find(hiddenGroups.begin(), hiddenGroups.end(), g.label) != hiddenGroups.end();
    for (TrackId t : expanded)
        if (const int row = rowOfTrack(t); row >= 0) rows_[row].expanded = true;
    for (TrackGroup& g : groups_)
        g.collapsed = std::find(collapsed.begin(), collapsed.end(), g.label) != collapsed.end();
    for (TrackId t : hidden)
        if (const int row = rowOfTrack(t); row >= 0) rows_[row].hidden = true;
    for (TrackId t : pinned)
        if (const int row = rowOfTrack(t); row >= 0) setPinned(row, true);
    for (const QString& prefix : foldedRanks) setRankFolded(prefix, true);
    relayout();
}

void TrackLayout::relayout() {
    int y = 0;
    shownRows_.clear();
    for (size_t i = 0; i < rows_.size(); ++i) {
        TrackRow& r = rows_[i];
        r.y = y;
        int h = 0;
        switch (r.kind) {
        case TrackRow::Kind::Group: {
            const TrackGroup& g = groups_[size_t(r.group)];
            h = g.folded ? 0 : g.summaryGpu >= 0 ? kSummaryHeight : kHeaderHeight;
            break;
        }
        case TrackRow::Kind::DeviceIdle:
            h = kIdleHeight + kRowPad;
            break;
        case TrackRow::Kind::Counter:
            h = kCounterHeight + kRowPad;
            break;
        case TrackRow::Kind::Instants:
            h = kInstantHeight + kRowPad;
            break;
        case TrackRow::Kind::Sections:
            h = kSectionsHeader + (r.expanded ? r.smLanes * kSmLaneHeight : 0) + kRowPad;
            break;
        case TrackRow::Kind::Utilisation:
            h = kUtilisationHeight + kRowPad;
            break;
        case TrackRow::Kind::Queue:
            h = kQueueHeight + kRowPad;
            break;
        case TrackRow::Kind::Memory:
            h = kMemoryHeight + kRowPad;
            break;
        case TrackRow::Kind::Samples:
            h = kSampleRowHeight + kRowPad;
            break;
        case TrackRow::Kind::Slices: {
            // A CPU thread shows its levels folded, to kDepthCap, until expanded (its lanes
            // together).
            r.laneY.clear();
            r.laneDepths.clear();
            r.hiddenLevels = 0;
            r.foldedDepths = 0;
            int laneTop = r.instants ? kInstantHeight : 0;
            for (size_t l = 0; l < r.fullDepths.size(); ++l) {
                const int full = r.fullDepths[l];
                const LaneFolds* folds = foldsOf(r, l);
                const int levels = folds ? foldedLevelCount(full, *folds) : full;
                const int shown = r.thread && !r.expanded ? std::min(levels, kDepthCap) : levels;
                r.hiddenLevels = std::max(r.hiddenLevels, levels - shown);
                r.foldedDepths = std::max(r.foldedDepths, full - levels);
                r.laneY.push_back(laneTop);
                r.laneDepths.push_back(shown);
                laneTop += shown * kDepthHeight;
            }
            if (r.sampleThread >= 0) laneTop += kSampleHeight;
            h = laneTop + kRowPad + (r.gpuStream ? kGapStrip : 0);
            // Room under the name for the "+N levels" handle of a folded thread.
            if (r.thread && (r.foldedDepths > 0 || r.hiddenLevels > 0))
                h = std::max(h, 2 * kDepthHeight + kRowPad);
            break;
        }
        }
        if (r.kind != TrackRow::Kind::Group && groups_[r.group].collapsed && !r.pinned) h = 0;
        if (r.hidden || (groups_[r.group].hidden && !r.pinned)) h = 0;
        r.height = h;
        if (h > 0) shownRows_.push_back(static_cast<int>(i));
        y += h;
    }
    height_ = y;
}

int TrackLayout::rowAt(int y) const {
    auto it = std::upper_bound(shownRows_.begin(), shownRows_.end(), y,
                               [&](int v, int row) { return v < rows_[row].y; });
    if (it == shownRows_.begin()) return -1;
    const int row = *(it - 1);
    return y < rows_[row].y + rows_[row].height ? row : -1;
}

const LaneFolds* TrackLayout::foldsOf(const TrackRow& r, size_t lane) const {
    if (!r.thread || r.expanded || lane >= r.folds.size() || r.folds[lane].empty()) return nullptr;
    return &r.folds[lane];
}

int TrackLayout::sliceY(TrackId t, uint16_t depth) const {
    const int row = rowOfTrack(t);
    if (row < 0 || rows_[row].height == 0) return -1;
    const TrackRow& r = rows_[row];
    const auto lane = size_t(laneOfTrack_[t]);
    const LaneFolds* folds = foldsOf(r, lane);
    const int level = folds ? levelOfDepth(depth, *folds) : depth;
    if (level >= r.laneDepths[lane]) return -1; // below the cap of a row not expanded
    return r.y + r.laneY[lane] + level * kDepthHeight;
}

bool TrackLayout::laneDepthAt(int row, int y, TrackId* track, uint16_t* depth,
                              DepthFold* fold) const {
    if (row < 0) return false;
    const TrackRow& r = rows_[row];
    if (r.kind != TrackRow::Kind::Slices || r.height == 0) return false;
    const int rel = y - r.y;
    for (size_t l = 0; l < r.lanes.size(); ++l) {
        const int top = r.laneY[l];
        if (rel >= top && rel < top + r.laneDepths[l] * kDepthHeight) {
            const int level = (rel - top) / kDepthHeight;
            const LaneFolds* folds = foldsOf(r, l);
            const DepthFold d = folds ? depthsOfLevel(level, *folds) : DepthFold{uint16_t(level)};
            *track = r.lanes[l];
            *depth = static_cast<uint16_t>(d.first + d.count - 1);
            if (fold) *fold = d;
            return true;
        }
    }
    return false;
}

int TrackLayout::instantsY(int row) const {
    if (row < 0 || row >= static_cast<int>(rows_.size())) return -1;
    const TrackRow& r = rows_[row];
    if (r.height == 0) return -1;
    if (r.kind == TrackRow::Kind::Instants) return r.y;
    return r.kind == TrackRow::Kind::Slices && r.instants ? r.y : -1;
}

int TrackLayout::samplesY(int row, int* height) const {
    if (row < 0 || row >= static_cast<int>(rows_.size())) return -1;
    const TrackRow& r = rows_[row];
    if (r.height == 0 || r.sampleThread < 0) return -1;
    if (height) *height = r.kind == TrackRow::Kind::Samples ? kSampleRowHeight : kSampleHeight;
    if (r.kind == TrackRow::Kind::Samples) return r.y;
    if (r.kind != TrackRow::Kind::Slices || r.laneY.empty()) return -1;
    return r.y + r.laneY.back() + r.laneDepths.back() * kDepthHeight;
}

} // namespace strata
