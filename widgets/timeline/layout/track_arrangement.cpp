#include "track_arrangement.h"

#include "io/notes/track_keys.h"

#include <algorithm>

namespace strata {

std::string rowKey(const Trace& trace, const TrackRow& row) {
    if (!row.lanes.empty()) return trackKey(trace, row.lanes.front());
    if (row.kind == TrackRow::Kind::Samples && row.sampleThread >= 0) {
        const SampleThread& st = trace.stackSamples().threads[size_t(row.sampleThread)];
        return "thread:" + std::to_string(st.pid) + ":" + std::to_string(st.tid);
    }
    return {};
}

std::string groupKey(const Trace& trace, const TrackLayout& layout, int group) {
    const TrackGroup& g = layout.groups()[size_t(group)];
    if (g.gpu) return deviceGroupKey(g.device);
    for (const TrackRow& r : layout.rows())
        if (r.group == group && !r.lanes.empty()) return trackGroupKey(trace, r.lanes.front());
    return processGroupKey(g.pid);
}

TrackArrangement arrangementOf(const TrackLayout& layout, const Trace& trace) {
    TrackArrangement a;
    const auto& rows = layout.rows();
    for (const TrackRow& r : rows) {
        if (r.kind == TrackRow::Kind::Group) continue;
        const std::string key = rowKey(trace, r);
        if (key.empty()) continue;
        if (r.pinned) a.pinned.push_back(key);
        if (r.hidden) a.hidden.push_back(key);
    }
    for (int g = 0; g < static_cast<int>(layout.groups().size()); ++g) {
        if (layout.groups()[size_t(g)].hidden) a.hiddenGroups.push_back(groupKey(trace, layout, g));
        if (!layout.reordered(g)) continue;
        std::vector<std::string> order;
        for (const TrackRow& r : rows)
            if (r.group == g && !r.pinned && r.kind != TrackRow::Kind::Group)
                if (std::string key = rowKey(trace, r); !key.empty()) order.push_back(key);
        a.order.emplace_back(groupKey(trace, layout, g), std::move(order));
    }
    return a;
}

namespace {

int rowWithKey(const TrackLayout& layout, const Trace& trace, const std::string& key) {
    const auto& rows = layout.rows();
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].kind != TrackRow::Kind::Group && rowKey(trace, rows[i]) == key) return int(i);
    return -1;
}

} // namespace

void applyArrangement(TrackLayout& layout, const Trace& trace, const TrackArrangement& a) {
    const int groups = static_cast<int>(layout.groups().size());
    for (const auto& [key, order] : a.order)
        for (int g = 0; g < groups; ++g)
            if (groupKey(trace, layout, g) == key)
                layout.orderGroup(g, [&, &order = order](const TrackRow& r) {
                    return std::find(order.begin(), order.end(), rowKey(trace, r)) - order.begin();
                });
    for (const std::string& key : a.pinned)
        if (const int row = rowWithKey(layout, trace, key); row >= 0) layout.setPinned(row, true);
    for (const std::string& key : a.hidden)
        if (const int row = rowWithKey(layout, trace, key); row >= 0) layout.setHidden(row, true);
    for (const std::string& key : a.hiddenGroups)
        for (int g = 0; g < groups; ++g)
            if (groupKey(trace, layout, g) == key) layout.setGroupHidden(g, true);
}

} // namespace strata
