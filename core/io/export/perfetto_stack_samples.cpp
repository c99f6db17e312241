#include "io/export/perfetto_stack_samples.h"

#include <map>
#include <string>
#include <utility>

namespace strata {

uint64_t writePerfettoStackSamples(JsonOut& out, const Trace& t, const PartIds& ids,
                                   const std::optional<TimeRange>& range) {
    const StackSamples& k = t.stackSamples();
    if (k.empty()) return 0;
    out.raw(",\n\"stackFrames\": {");
    for (CallsiteId c = 1; c < k.callsiteParent.size(); ++c) {
        out.raw(c == 1 ? "\n" : ",\n");
        out.str(std::to_string(c));
        out.raw(": {\"name\": ");
        out.str(t.str(k.callsiteFrame[c]));
        if (k.callsiteParent[c] != kNoCallsite) {
            out.raw(", \"parent\": ");
            out.str(std::to_string(k.callsiteParent[c]));
        }
        out.raw("}");
    }
    out.raw("},\n\"samples\": [");
    std::map<std::pair<int64_t, int64_t>, TrackId> mainLane;
    for (TrackId i = 0; i < t.tracks().size(); ++i)
        if (const Track& tr = t.track(i); tr.kind == TrackKind::Thread && tr.lane == 0)
            mainLane.emplace(std::pair{tr.pid, tr.tid}, i);
    uint64_t written = 0;
    for (const SampleThread& th : k.threads) {
        const auto lane = mainLane.find({th.pid, th.tid});
        const auto [pid, tid] = lane == mainLane.end()
                                    ? ids.sampleThread(th.pid, th.tid)
                                    : std::pair{ids.pid(lane->second), ids.tid(lane->second)};
        const auto [first, last] = k.rowsIn(th, range ? *range : TimeRange{INT64_MIN, INT64_MAX});
        for (uint64_t r = first; r < last; ++r) {
            // Chrome's samples are samples of time: not the stacks taken at CUDA calls.
            if (k.callsite[r] == kNoCallsite || k.kind[r] == uint8_t(StackKind::ApiCall)) continue;
            out.raw(written++ ? ",\n{\"ts\": " : "\n{\"ts\": ");
            out.micros(k.ts[r]);
            out.raw(", \"pid\": ");
            out.i64(pid);
            out.raw(", \"tid\": ");
            out.i64(tid);
            out.raw(", \"sf\": ");
            out.str(std::to_string(k.callsite[r]));
            out.raw("}");
        }
    }
    out.raw("]");
    return written;
}

} // namespace strata
