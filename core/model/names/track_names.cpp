#include "model/names/track_names.h"

#include <charconv>

namespace strata {

namespace {
std::string named(const Trace& trace, StringId name) {
    return std::string(trace.str(name));
}
} // namespace

// The ids shown: those a process or thread had before an export renumbered them.
int64_t shownPid(const Trace& trace, int64_t pid) {
    const Process* p = trace.process(pid);
    return p ? p->shownPid() : pid;
}
int64_t shownTid(const Trace& trace, int64_t pid, int64_t tid) {
    const Thread* t = trace.thread(pid, tid);
    return t ? t->shownTid() : tid;
}

std::string processGroupName(const Trace& trace, int64_t pid) {
    const Process* p = trace.process(pid);
    return (p && p->name ? named(trace, p->name) : std::string("Process")) + " " +
           std::to_string(shownPid(trace, pid));
}

// The name of the process a device's streams came in, when it names a GPU ("rank 1: GPU 0", as
// Strata's export of several traces writes it: the device id itself was renumbered there).
static std::string setDeviceName(const Trace& trace, int32_t device) {
    for (const Track& t : trace.tracks()) {
        if (t.kind != TrackKind::GpuStream || t.device != device) continue;
        const Process* p = trace.process(t.pid);
        if (!p || !p->name) return {};
        const std::string_view name = trace.str(p->name);
        const size_t at = name.rfind(": GPU ");
        if (at == std::string_view::npos || at + 6 == name.size()) return {};
        for (char c : name.substr(at + 6))
            if (c < '0' || c > '9') return {};
        return std::string(name);
    }
    return {};
}

std::string deviceGroupName(const Trace& trace, int32_t device) {
    std::string label = setDeviceName(trace, device);
    if (label.empty()) label = "GPU " + std::to_string(device);
    for (const DeviceInfo& d : trace.devices())
        if (d.id == device && !d.name.empty()) label += " (" + d.name + ")";
    return label;
}

std::string threadRowName(const Trace& trace, int64_t pid, int64_t tid) {
    const Thread* th = trace.thread(pid, tid);
    return (th && th->name ? named(trace, th->name) : std::string("Thread")) + " " +
           std::to_string(shownTid(trace, pid, tid));
}

std::string trackRowName(const Trace& trace, const Track& t) {
    switch (t.kind) {
    case TrackKind::Thread:
        return threadRowName(trace, t.pid, t.tid);
    case TrackKind::GpuStream:
        return "Stream " + std::to_string(t.tid);
    case TrackKind::Counter:
    case TrackKind::Async:
        return named(trace, t.name);
    case TrackKind::ProcessInstants:
    case TrackKind::GlobalInstants:
        return "Instants";
    }
    return {};
}

std::string trackFullName(const Trace& trace, TrackId id) {
    if (id >= trace.tracks().size()) return "?";
    const Track& t = trace.track(id);
    std::string label;
    switch (t.kind) {
    case TrackKind::Thread: {
        const Thread* th = trace.thread(t.pid, t.tid);
        const std::string name = th && th->name ? named(trace, th->name) : std::string();
        const std::string tid = std::to_string(shownTid(trace, t.pid, t.tid));
        label = name.empty() ? "Thread " + tid : name + " [" + tid + "]";
        const Process* p = trace.process(t.pid);
        const std::string pid = std::to_string(shownPid(trace, t.pid));
        if (p && p->name)
            label += " \u00b7 " + named(trace, p->name) + " [" + pid + "]";
        else
            label += " \u00b7 pid " + pid;
        break;
    }
    case TrackKind::GpuStream:
        label = "GPU " + std::to_string(t.device) + " \u00b7 stream " + std::to_string(t.tid);
        break;
    case TrackKind::Counter:
    case TrackKind::Async:
        label = named(trace, t.name);
        break;
    case TrackKind::ProcessInstants:
        label = "Instants \u00b7 pid " + std::to_string(shownPid(trace, t.pid));
        break;
    case TrackKind::GlobalInstants:
        label = "Global instants";
        break;
    }
    if (t.lane > 0) label += " (lane " + std::to_string(t.lane + 1) + ")";
    return label;
}

std::string gpuCounterName(int64_t device, std::string_view metric) {
    return "GPU " + std::to_string(device) + " " + std::string(metric);
}

std::optional<std::pair<int32_t, std::string>> parseGpuCounterName(std::string_view name) {
    constexpr std::string_view kPrefix = "GPU ";
    if (!name.starts_with(kPrefix)) return std::nullopt;
    name.remove_prefix(kPrefix.size());
    int32_t device = -1;
    const char* const end = name.data() + name.size();
    const auto [at, ec] = std::from_chars(name.data(), end, device);
    if (ec != std::errc() || at == name.data() || at == end || *at != ' ') return std::nullopt;
    const std::string_view metric = name.substr(size_t(at - name.data()) + 1);
    if (metric.empty()) return std::nullopt;
    return std::pair{device, std::string(metric)};
}

} // namespace strata
