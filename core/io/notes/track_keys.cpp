#include "io/notes/track_keys.h"

#include <cstdio>

namespace strata {

std::string processGroupKey(int64_t pid) {
    return "process:" + std::to_string(pid);
}

std::string deviceGroupKey(int32_t device) {
    return "gpu:" + std::to_string(device);
}

std::string trackKey(const Trace& trace, TrackId id) {
    const Track& t = trace.track(id);
    const std::string pid = std::to_string(t.pid);
    switch (t.kind) {
    case TrackKind::Thread:
        return "thread:" + pid + ":" + std::to_string(t.tid);
    case TrackKind::GpuStream:
        return "stream:" + std::to_string(t.device) + ":" + std::to_string(t.tid);
    case TrackKind::Counter:
        return "counter:" + pid + ":" + std::string(trace.str(t.name));
    case TrackKind::Async: {
        char cookie[24];
        std::snprintf(cookie, sizeof cookie, "%llx", static_cast<unsigned long long>(t.cookie));
        return "async:" + pid + ":" + std::string(trace.str(t.name)) + ":" + cookie;
    }
    case TrackKind::ProcessInstants:
        return "instants:" + pid;
    case TrackKind::GlobalInstants:
        return "instants:global";
    }
    return "track:" + std::to_string(id);
}

std::string trackGroupKey(const Trace& trace, TrackId id) {
    const Track& t = trace.track(id);
    if (t.kind == TrackKind::GpuStream) return deviceGroupKey(t.device);
    if (t.kind == TrackKind::GlobalInstants) return "global";
    return processGroupKey(t.pid);
}

} // namespace strata
