#pragma once
// What the Chrome JSON reader's tests share: their fixtures' paths, finding tracks and slices in
// what was read, its warnings, reading a text.
#include "io/json/chrome_json_reader.h"
#include "model/trace.h"
#include "support/test_files.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace strata::test {

inline std::string dataPath(const char* name) {
    return std::string(STRATA_TEST_DATA) + "/json/" + name;
}

// The track of `kind` for (pid, tid) or (device, stream), lane `lane`; UINT32_MAX if none.
inline TrackId findTrack(const Trace& t, TrackKind kind, int64_t pid, int64_t tid,
                         uint32_t lane = 0) {
    for (TrackId i = 0; i < t.tracks().size(); ++i) {
        const Track& tr = t.track(i);
        if (tr.kind != kind || tr.lane != lane) continue;
        if (kind == TrackKind::GpuStream ? (tr.device == pid && tr.tid == tid)
                                         : (tr.pid == pid && tr.tid == tid))
            return i;
    }
    return UINT32_MAX;
}

inline TrackId findNamedTrack(const Trace& t, TrackKind kind, std::string_view name) {
    for (TrackId i = 0; i < t.tracks().size(); ++i)
        if (t.track(i).kind == kind && t.str(t.track(i).name) == name) return i;
    return UINT32_MAX;
}

inline SliceRef findSlice(const Trace& t, std::string_view name) {
    for (TrackId i = 0; i < t.tracks().size(); ++i) {
        const SliceColumns& s = t.track(i).slices;
        for (SliceIndex k = 0; k < s.size(); ++k)
            if (t.str(s.name[k]) == name) return SliceRef{i, k};
    }
    return {};
}

inline bool hasWarning(const Trace& t, const std::string& part) {
    for (const auto& w : t.warnings())
        if (w.find(part) != std::string::npos) return true;
    return false;
}

inline LoadResult loadText(const std::string& text) {
    return readChromeJsonBuffer(text, "inline.json");
}

} // namespace strata::test
