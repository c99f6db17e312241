// The CPU-side tables of an Nsight Systems export: NVTX ranges and marks, OS runtime calls.
#include "io/formats/nsys/nsys_export.h"

namespace strata {

namespace {

// ENUM_NSYS_EVENT_TYPE: the values every nsys since 2020 writes.
constexpr int64_t kNvtxMark = 34;
constexpr int64_t kNvtxPushPop = 59;
constexpr int64_t kNvtxStartEnd = 60;
constexpr int64_t kNvtxDomainCreate = 75;

} // namespace

void NsysExport::readNvtx() {
    const std::string t = "NVTX_EVENTS";
    if (!db_.hasTable(t)) return;
    // Domain names first (NvtxDomainCreate rows: domainId, text).
    std::unordered_map<int64_t, StringId> domains;
    const std::string textCol = col(t, "text"), textIdCol = col(t, "textId");
    const std::string domainCol = col(t, "domainId");
    SqliteStatement d = db_.prepare("SELECT " + domainCol + ", " + textCol + " FROM " + t +
                                    " WHERE eventType = " + std::to_string(kNvtxDomainCreate));
    while (d.valid() && d.step())
        if (!d.isNull(0)) domains[d.integer(0)] = b_.intern(d.text(1));
    const StringId nvtx = b_.intern("nvtx");
    eachRow(t,
            "SELECT start, \"end\", eventType, globalTid, " + textCol + ", " + textIdCol + ", " +
                domainCol + " FROM " + t,
            [&](SqliteStatement& s) {
                const int64_t type = s.integer(2);
                if (type == kNvtxDomainCreate) return;
                if (type != kNvtxMark && type != kNvtxPushPop && type != kNvtxStartEnd)
                    return skipped(t, "an event type Strata does not show");
                if (s.isNull(0) || s.isNull(3)) return skipped(t, "no start or no thread");
                const StringId name = !s.isNull(5) ? str(s.integer(5)) : b_.intern(s.text(4));
                const auto dom = domains.find(s.integer(6, -1));
                const StringId category = dom != domains.end() ? dom->second : nvtx;
                const int64_t g = s.integer(3);
                const TrackId track = b_.threadTrack(nsysPid(g), nsysTid(g));
                if (type == kNvtxMark) {
                    b_.addInstant(track, s.integer(0), name, category, kNoArgs);
                    return;
                }
                if (s.isNull(1) || s.integer(1) < s.integer(0))
                    return skipped(t, "a range with no end, or an end before its start");
                SliceInput in;
                in.start = s.integer(0);
                in.dur = s.integer(1) - s.integer(0);
                in.name = name;
                in.category = category;
                in.kind = SliceKind::UserAnnotation;
                b_.addSlice(track, in);
            });
}

void NsysExport::readOsrt() {
    readThreadCalls("OSRT_API", b_.intern("osrt"));
}

// A table of calls on threads (start, end, globalTid, nameId), each a slice of `category`.
void NsysExport::readThreadCalls(const std::string& t, StringId category) {
    eachRow(t, "SELECT start, \"end\", globalTid, nameId FROM " + t, [&](SqliteStatement& s) {
        if (s.isNull(0) || s.isNull(1) || s.isNull(2) || s.integer(1) < s.integer(0))
            return skipped(t, "no start, end or thread, or an end before the start");
        const int64_t g = s.integer(2);
        SliceInput in;
        in.start = s.integer(0);
        in.dur = s.integer(1) - s.integer(0);
        in.name = str(s.integer(3));
        in.category = category;
        b_.addSlice(b_.threadTrack(nsysPid(g), nsysTid(g)), in);
    });
}

} // namespace strata
