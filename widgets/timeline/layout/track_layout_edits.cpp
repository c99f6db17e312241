// TrackLayout's rows as the user arranges them: hidden, pinned, expanded, groups collapsed, a
// rank's groups folded into one row (track_layout.h).
#include "track_layout.h"

#include <algorithm>

namespace strata {

void TrackLayout::setHidden(int row, bool on) {
    if (row < 0 || row >= static_cast<int>(rows_.size()) ||
        rows_[row].kind == TrackRow::Kind::Group || rows_[row].hidden == on)
        return;
    rows_[row].hidden = on;
    relayout();
}

void TrackLayout::showAll() {
    for (TrackRow& r : rows_) r.hidden = false;
    relayout();
}

int TrackLayout::hiddenCount() const {
    return static_cast<int>(
        std::count_if(rows_.begin(), rows_.end(), [](const TrackRow& r) { return r.hidden; }));
}

void TrackLayout::setPinned(int row, bool on) {
    if (row < 0 || row >= static_cast<int>(rows_.size()) ||
        rows_[row].kind == TrackRow::Kind::Group || rows_[row].pinned == on)
        return;
    TrackRow r = std::move(rows_[row]);
    rows_.erase(rows_.begin() + row);
    r.pinned = on;
    if (on) {
        const auto firstUnpinned =
            std::find_if(rows_.begin(), rows_.end(), [](const TrackRow& x) { return !x.pinned; });
        rows_.insert(firstUnpinned, std::move(r));
    } else {
        // Back to the end of its group (after its header and the group's other rows).
        size_t at = rows_.size();
        for (size_t i = 0; i < rows_.size(); ++i)
            if (!rows_[i].pinned && rows_[i].group == r.group) at = i + 1;
        rows_.insert(rows_.begin() + static_cast<ptrdiff_t>(at), std::move(r));
    }
    reindex();
    relayout();
}

void TrackLayout::reindex() {
    std::fill(rowOfTrack_.begin(), rowOfTrack_.end(), -1);
    for (size_t i = 0; i < rows_.size(); ++i) {
        const TrackRow& r = rows_[i];
        if (r.kind == TrackRow::Kind::Group) groups_[r.group].headerRow = static_cast<int>(i);
        for (TrackId t : r.lanes) rowOfTrack_[t] = static_cast<int>(i);
    }
}

void TrackLayout::setExpanded(int row, bool on) {
    if (row < 0 || row >= static_cast<int>(rows_.size()) || rows_[row].expanded == on) return;
    rows_[row].expanded = on;
    relayout();
}

void TrackLayout::setAllExpanded(bool on) {
    for (TrackRow& r : rows_)
        if (r.kind != TrackRow::Kind::Sections) r.expanded = on; // SM lanes open one at a time
    relayout();
}

void TrackLayout::setCollapsed(int group, bool on) {
    if (group < 0 || group >= static_cast<int>(groups_.size()) || groups_[group].collapsed == on)
        return;
    if (!on && !groups_[group].rankLabel.isEmpty()) {
        setRankFolded(groups_[group].rankPrefix, false);
        return;
    }
    groups_[group].collapsed = on;
    relayout();
}

void TrackLayout::setRankFolded(const QString& prefix, bool on) {
    std::vector<int> members;
    for (size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].label.startsWith(prefix)) members.push_back(int(g));
    if (members.empty()) return;
    // The summary is the group shown first (its header row comes first).
    std::sort(members.begin(), members.end(), [&](int a, int b) {
        return groups_[size_t(a)].headerRow < groups_[size_t(b)].headerRow;
    });
    int gpu = -1;
    for (int g : members)
        if (groups_[size_t(g)].gpu && gpu < 0) gpu = g;
    for (int g : members) {
        TrackGroup& x = groups_[size_t(g)];
        x.collapsed = on;
        x.folded = on && g != members.front();
        x.rankPrefix = prefix;
        x.rankLabel.clear();
        x.summaryGpu = -1;
    }
    if (on) {
        TrackGroup& head = groups_[size_t(members.front())];
        QString name = prefix;
        if (name.endsWith(QStringLiteral(": "))) name.chop(2);
        head.rankLabel = members.size() == 1
                             ? name
                             : QStringLiteral("%1 (%2 groups)").arg(name).arg(members.size());
        head.summaryGpu = gpu;
    }
    relayout();
}

} // namespace strata
