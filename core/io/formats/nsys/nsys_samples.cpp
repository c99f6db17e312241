// The sampled tables of an Nsight Systems export: GPU metrics (counter rows under each GPU) and
// CPU samples (each thread's sampled call stacks).
#include "io/formats/nsys/nsys_export.h"

#include "model/names/track_names.h"

#include <map>

namespace strata {

// GPU_METRICS (typeId, timestamp, metricId, value) named by TARGET_INFO_GPU_METRICS (typeId,
// metricId, metricName): one counter track per device and metric, on the device's pid (the pid
// of its stream lanes), named "GPU <device> <metric>" (gpuCounterName, as rpd's monitors).
// The device is typeId's low byte, as nsys packs it.
void NsysExport::readGpuMetrics() {
    const std::string t = "GPU_METRICS", names = "TARGET_INFO_GPU_METRICS";
    if (!db_.hasTable(t)) return;
    std::map<std::pair<int64_t, int64_t>, std::string> metricName; // (typeId, metricId) -> name
    if (db_.hasTable(names)) {
        SqliteStatement n = db_.prepare("SELECT typeId, metricId, metricName FROM " + names);
        while (n.valid() && n.step())
            metricName[{n.integer(0), n.integer(1)}] = std::string(n.text(2));
    }
    std::map<std::pair<int64_t, int64_t>, TrackId> tracks;
    eachRow(t, "SELECT typeId, timestamp, metricId, value FROM " + t, [&](SqliteStatement& s) {
        if (s.isNull(1) || s.isNull(3)) return skipped(t, "no timestamp or no value");
        const std::pair key{s.integer(0), s.integer(2)};
        auto it = tracks.find(key);
        if (it == tracks.end()) {
            const int64_t device = key.first & 0xFF;
            const auto name = metricName.find(key);
            const std::string metric =
                name != metricName.end() ? name->second : "metric " + std::to_string(key.second);
            it = tracks
                     .emplace(key,
                              b_.counterTrack(device, b_.intern(gpuCounterName(device, metric))))
                     .first;
        }
        b_.addCounter(it->second, s.integer(1), s.real(3));
    });
}

// COMPOSITE_EVENTS (id, start, globalTid): a sample of a thread; SAMPLING_CALLCHAINS (id,
// symbol, module, stackDepth): its frames, stackDepth 0 the innermost. Native stacks; a frame
// with no symbol is named by its module.
void NsysExport::readCpuSamples() {
    const std::string t = "COMPOSITE_EVENTS", chains = "SAMPLING_CALLCHAINS";
    if (!db_.hasTable(t)) return;
    std::unordered_map<int64_t, CallsiteId> innermost; // sample id -> callsite
    std::map<std::pair<CallsiteId, StringId>, CallsiteId> made;
    eachRow(chains,
            "SELECT id, symbol, " + col(chains, "module") + ", stackDepth FROM " + chains +
                " ORDER BY id, stackDepth DESC",
            [&, at = int64_t(-1), parent = kNoCallsite](SqliteStatement& s) mutable {
                if (s.integer(0) != at) {
                    at = s.integer(0);
                    parent = kNoCallsite;
                }
                const std::string_view module = text(s.integer(2, -1));
                const StringId frame = !text(s.integer(1)).empty() ? str(s.integer(1))
                                       : module.empty()
                                           ? b_.intern("[unknown]")
                                           : b_.intern("[" + std::string(module) + "]");
                auto [it, added] = made.try_emplace({parent, frame}, kNoCallsite);
                if (added) it->second = b_.addCallsite(parent, frame);
                parent = innermost[at] = it->second;
            });
    eachRow(t, "SELECT id, start, globalTid FROM " + t, [&](SqliteStatement& s) {
        if (s.isNull(1) || s.isNull(2)) return skipped(t, "no start or no thread");
        const auto c = innermost.find(s.integer(0));
        const int64_t g = s.integer(2);
        b_.addStackSample(nsysPid(g), nsysTid(g), s.integer(1),
                          c != innermost.end() ? c->second : kNoCallsite,
                          uint8_t(StackKind::Native));
    });
}

} // namespace strata
