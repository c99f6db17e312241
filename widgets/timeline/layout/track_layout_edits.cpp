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
    for (TrackGroup& g : groups_) g.hidden = false;
    relayout();
}

int TrackLayout::hiddenCount() const {
    return static_cast<int>(
        std::count_if(rows_.begin(), rows_.end(), [](const TrackRow& r) { return r.hidden; }) +
        std::count_if(groups_.begin(), groups_.end(),
                      [](const TrackGroup& g) { return g.hidden; }));
}

void TrackLayout::setGroupHidden(int group, bool on) {
    if (group < 0 || group >= static_cast<int>(groups_.size()) || groups_[group].hidden == on)
        return;
    groups_[group].hidden = on;
    relayout();
}

bool TrackLayout::movable(const TrackRow& r) {
    switch (r.kind) {
    case TrackRow::Kind::Slices:
    case TrackRow::Kind::Counter:
    case TrackRow::Kind::Instants:
    case TrackRow::Kind::Samples:
        return true;
    default:
        return false;
    }
}

int TrackLayout::blockEnd(int row) const {
    int end = row + 1;
    if (!rows_[size_t(row)].pinned)
        while (end < static_cast<int>(rows_.size()) &&
               rows_[size_t(end)].kind == TrackRow::Kind::Queue && !rows_[size_t(end)].pinned)
            ++end;
    return end;
}

// The first row of the sibling block shown next to `row` that way, or -1.
int TrackLayout::neighbour(int row, int delta) const {
    const int n = static_cast<int>(rows_.size());
    if (row < 0 || row >= n || delta == 0 || !movable(rows_[size_t(row)])) return -1;
    const TrackRow& me = rows_[size_t(row)];
    auto sibling = [&](const TrackRow& r) {
        return movable(r) && !r.hidden && r.pinned == me.pinned &&
               (me.pinned || r.group == me.group);
    };
    auto stop = [&](const TrackRow& r) {
        return me.pinned ? !r.pinned
                         : r.pinned || r.group != me.group || r.kind == TrackRow::Kind::Group;
    };
    if (delta < 0) {
        for (int i = row - 1; i >= 0 && !stop(rows_[size_t(i)]); --i)
            if (sibling(rows_[size_t(i)])) return i;
    } else {
        for (int i = blockEnd(row); i < n && !stop(rows_[size_t(i)]); ++i)
            if (sibling(rows_[size_t(i)])) return i;
    }
    return -1;
}

bool TrackLayout::moveRow(int row, int delta) {
    const int other = neighbour(row, delta);
    if (other < 0) return false;
    const auto at = [&](int i) { return rows_.begin() + i; };
    const int group = rows_[size_t(row)].group;
    const bool pinned = rows_[size_t(row)].pinned;
    if (delta < 0)
        std::rotate(at(other), at(row), at(blockEnd(row)));
    else
        std::rotate(at(row), at(blockEnd(row)), at(blockEnd(other)));
    if (!pinned && !reordered(group)) reordered_.push_back(group);
    reindex();
    relayout();
    return true;
}

bool TrackLayout::reordered(int group) const {
    return std::find(reordered_.begin(), reordered_.end(), group) != reordered_.end();
}

// The group's blocks ([begin, end) in rows_) put in the given order where the first of them was.
void TrackLayout::moveBlocks(int group, std::vector<std::pair<int, int>> blocks) {
    if (blocks.empty()) return;
    int first = blocks.front().first;
    for (const auto& b : blocks) first = std::min(first, b.first);
    std::vector<char> inBlock(rows_.size(), 0);
    for (const auto& [b, e] : blocks) std::fill(inBlock.begin() + b, inBlock.begin() + e, 1);
    std::vector<TrackRow> out;
    out.reserve(rows_.size());
    for (int i = 0; i < static_cast<int>(rows_.size()); ++i) {
        if (i == first)
            for (const auto& [b, e] : blocks)
                for (int j = b; j < e; ++j) out.push_back(std::move(rows_[size_t(j)]));
        if (!inBlock[size_t(i)]) out.push_back(std::move(rows_[size_t(i)]));
    }
    rows_ = std::move(out);
    if (!reordered(group)) reordered_.push_back(group);
    reindex();
    relayout();
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
