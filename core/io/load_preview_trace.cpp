#include "io/load_preview_trace.h"

#include "model/build/trace_builder.h"

#include <cmath>
#include <string>

namespace strata {

namespace {

// A bin at least this busy continues a run of busy bins.
constexpr float kWhole = 0.999f;

// The lane's busy bins as slices of `name` on `track` (the rule in the header).
void addLane(TraceBuilder& b, TrackId track, StringId name, SliceKind kind, const LoadPreview& p,
             const PreviewLane& lane) {
    TimeNs runStart = 0, runEnd = 0;
    bool open = false;
    const auto flush = [&] {
        if (open)
            b.addSlice(track, SliceInput{.start = runStart,
                                         .dur = runEnd - runStart,
                                         .name = name,
                                         .kind = kind});
        open = false;
    };
    for (size_t i = 0; i < lane.busy.size(); ++i) {
        const float share = lane.busy[i];
        if (share <= 0) {
            flush();
            continue;
        }
        const TimeNs at = p.start + TimeNs(i) * p.binWidth;
        const bool whole = share >= kWhole;
        const TimeNs len =
            whole ? p.binWidth
                  : std::max<TimeNs>(1, TimeNs(std::llround(double(share) * double(p.binWidth))));
        if (!open || runEnd != at) {
            flush();
            runStart = at, open = true;
        }
        runEnd = at + len;
        if (!whole) flush(); // a bin busy in part ends the run
    }
    flush();
}

} // namespace

std::shared_ptr<const Trace> previewTrace(const LoadPreview& p) {
    TraceBuilder b;
    const StringId gpu = b.intern(kPreviewGpuName), cpu = b.intern(kPreviewCpuName);
    b.setNameColor(gpu, 0xFF408CD6);
    b.setNameColor(cpu, 0xFF6E7682);
    for (const PreviewLane& lane : p.lanes)
        addLane(b,
                lane.gpu ? b.gpuStreamTrack(lane.device, lane.stream, lane.device, lane.stream)
                         : b.threadTrack(lane.pid, lane.tid),
                lane.gpu ? gpu : cpu, lane.gpu ? SliceKind::Kernel : SliceKind::Generic, p, lane);
    // The names read so far, of the threads and processes drawn.
    for (const PreviewLane& lane : p.lanes) {
        if (lane.gpu) continue;
        if (const auto t = p.threadNames.find({lane.pid, lane.tid}); t != p.threadNames.end())
            b.setThreadName(lane.pid, lane.tid, b.intern(t->second));
        if (const auto n = p.processNames.find(lane.pid); n != p.processNames.end())
            b.setProcessName(lane.pid, b.intern(n->second));
    }
    if (!p.empty()) {
        b.includeInBounds(p.first);
        b.includeInBounds(p.last);
    }
    b.setMetadata("preview", std::to_string(std::lround(p.fraction * 100)) +
                                 " % of the file read, " + std::to_string(p.slices) + " slices");
    return b.build();
}

std::string previewOf(const Trace& trace) {
    const auto it = trace.metadata().find("preview");
    return it == trace.metadata().end() ? std::string() : it->second;
}

} // namespace strata
