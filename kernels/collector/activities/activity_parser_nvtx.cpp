// ActivityParser: NVTX ranges and marks (MARKER records) and their colours (MARKER_DATA records).
// A range's start and end may come in different buffers, in either order; a range that ends on
// another thread than it started on becomes an async slice.
#include "activities/activity_parser.h"

#include "io/strata/strata_trace_writer.h"

#include <cupti.h>

namespace strata {

void ActivityParser::emitRange(const OpenMarker& begin, int64_t endTs, int64_t endTid,
                               uint32_t id) {
    if (endTs < begin.ts) {
        ++stats_.invalidTimestamps;
        return;
    }
    if (!keepMarker(begin.name, begin.ts, endTs)) return;
    const uint32_t name = w_.string(begin.name);
    if (begin.color) nameColor(name, begin.color);
    noteThread(begin.pid, begin.tid);
    if (endTid == begin.tid)
        w_.cpuSlice(begin.pid, begin.tid, begin.ts, endTs, name, SliceKind::UserAnnotation, -1, 0);
    else
        w_.asyncSlice(begin.pid, id, begin.ts, endTs, name); // nvtxRangeStart/End across threads
    ++stats_.written;
}

void ActivityParser::marker(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(rec);
    int64_t pid = 0, tid = 0;
    if (m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
        m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
        pid = m->objectId.pt.processId;
        tid = m->objectId.pt.threadId;
    }
    if (m->timestamp == 0) {
        ++stats_.invalidTimestamps;
        return;
    }
    const int64_t ts = int64_t(m->timestamp);
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        const uint32_t color = takeColor(m->id);
        if (!keepMarker(m->name ? m->name : "", ts, ts)) return;
        noteThread(pid, tid);
        const uint32_t name = w_.string(m->name ? m->name : "");
        if (color) nameColor(name, color);
        w_.instant(pid, tid, ts, name);
        lastMark_.emplace(m->id, name);
        ++stats_.written;
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        OpenMarker open{m->name ? m->name : "", pid, tid, ts, takeColor(m->id)};
        auto early = earlyEnds_.find(m->id);
        if (early != earlyEnds_.end()) { // the end came first (another thread's buffer)
            emitRange(open, early->second.first, early->second.second, m->id);
            earlyEnds_.erase(early);
        } else {
            openMarkers_[m->id] = std::move(open);
        }
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        auto it = openMarkers_.find(m->id);
        if (it == openMarkers_.end()) {
            earlyEnds_[m->id] = {ts, tid};
            return;
        }
        emitRange(it->second, ts, tid, m->id);
        openMarkers_.erase(it);
    }
}

void ActivityParser::markerData(const CUpti_Activity* rec) {
    const auto* d = reinterpret_cast<const CUpti_ActivityMarkerData2*>(rec);
    if (!(d->flags & CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB)) return;
    const uint32_t argb = d->color | 0xff000000u; // NVTX colours are opaque: 0 stays "none"
    if (auto open = openMarkers_.find(d->id); open != openMarkers_.end()) {
        open->second.color = argb;
        return;
    }
    if (lastMark_ && lastMark_->first == d->id) {
        nameColor(lastMark_->second, argb);
        return;
    }
    // Its marker has not come yet (or was outside the capture): bounded, colours only.
    if (pendingColors_.size() >= 4096) pendingColors_.clear();
    pendingColors_[d->id] = argb;
}

uint32_t ActivityParser::takeColor(uint32_t markerId) {
    const auto it = pendingColors_.find(markerId);
    if (it == pendingColors_.end()) return 0;
    const uint32_t argb = it->second;
    pendingColors_.erase(it);
    return argb;
}

void ActivityParser::nameColor(uint32_t name, uint32_t argb) {
    auto [it, added] = nameColors_.try_emplace(name, argb);
    if (!added && it->second == argb) return;
    it->second = argb;
    w_.nameColor(name, argb);
}

} // namespace strata
