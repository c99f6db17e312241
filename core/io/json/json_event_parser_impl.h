#pragma once
// The state of a ChromeEventParser: caches in front of the builder, skip and repair counters,
// the id resolution of string pids/tids, and the handlers per kind of event. Internal to the
// JSON reader: json_event_parser.cpp walks batches and locates errors, json_event_handlers.cpp
// turns events into TraceBuilder calls.
#include "io/json/json_simdjson.h" // first: sets the target for everything below

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/json/json_batch_walker.h"
#include "io/json/json_decimal.h"
#include "io/json/json_event_fields.h"
#include "io/json/json_event_parser.h"

namespace strata {
namespace od = simdjson::ondemand;
namespace json_parser {

inline uint64_t fnv1a(std::string_view a, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : a) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Synthetic ids for string pids/tids that are not numbers ("stream 7" stays a name).
constexpr int64_t kStringIdBase = int64_t(1) << 48;

inline bool isGpuTrackKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset ||
           k == SliceKind::GpuUserAnnotation;
}

inline int64_t trailingInt(std::string_view s, int64_t fallback) {
    size_t i = s.size();
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
    int64_t v;
    if (i < s.size() && parseInt64(s.substr(i), &v)) return v;
    return fallback;
}

struct Skip {
    uint64_t count = 0;
    uint64_t offset = 0;
    uint64_t line = 0;
};

} // namespace json_parser

using namespace json_parser;

struct ChromeEventParser::Impl {
    TraceBuilder& b;
    LoadPreviewCollector* preview = nullptr; // ChromeEventParser::setPreview
    od::parser parser;
    Event scratch;               // an event read alone by parseAlone()
    const Event* evp = &scratch; // the event dispatch() works on
    uint64_t eventsParsed = 0;
    const EventBatch* batch = nullptr;
    const EventBatch::Pos* pos = nullptr;
    std::map<std::string, Skip> skips;
    std::unordered_map<std::string, int64_t> stringIds; // string pid/tid -> synthetic id
    std::vector<std::pair<std::pair<int64_t, int64_t>, std::string>> stringThreadNames;
    std::vector<std::pair<int64_t, std::string>> stringProcessNames;
    std::set<std::pair<int64_t, int64_t>> namedThreads;
    std::set<int64_t> namedProcesses;
    std::vector<int8_t> kindCache; // by category StringId: SliceKind + 1, 0 = unknown
    // The name of each async track, by (pid, cookie): its first event's (asyncEvent).
    std::map<std::pair<int64_t, uint64_t>, StringId> asyncTrackNames;
    StringId kArgName = 0, kArgSortIndex = 0, kArgLabels = 0;

    // Direct-mapped cache in front of the string pool: names, categories and arg keys repeat.
    struct CacheSlot {
        const char* p = nullptr;
        uint32_t len = 0;
        StringId id = 0;
    };
    std::vector<CacheSlot> internCache = std::vector<CacheSlot>(4096);

    explicit Impl(TraceBuilder& builder) : b(builder) {}

    // The last thread track asked for (events of one thread come in runs).
    int64_t lastPid = INT64_MIN, lastTid = INT64_MIN;
    TrackId lastTrack = 0;
    TrackId threadTrack(int64_t pid, int64_t tid) {
        if (pid != lastPid || tid != lastTid) {
            lastTrack = b.threadTrack(pid, tid);
            lastPid = pid;
            lastTid = tid;
        }
        return lastTrack;
    }

    StringId intern(std::string_view s) {
        uint64_t h = uint64_t(s.size()) * 0x9E3779B97F4A7C15ull;
        uint64_t a = 0, z = 0;
        if (s.size() >= 8) {
            std::memcpy(&a, s.data(), 8);
            std::memcpy(&z, s.data() + s.size() - 8, 8);
        } else if (!s.empty()) {
            std::memcpy(&a, s.data(), s.size());
        }
        h ^= a * 0xff51afd7ed558ccdull;
        h ^= (z ^ (z >> 29)) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 32;
        CacheSlot& slot = internCache[h & 4095];
        if (slot.p && slot.len == s.size() && std::memcmp(slot.p, s.data(), s.size()) == 0)
            return slot.id;
        const StringId id = b.intern(s);
        const std::string_view stored = b.strings().view(id);
        slot = {stored.data(), uint32_t(stored.size()), id};
        return id;
    }

    // An event skipped, or kept with a repair, counted by why (with where the first was).
    void count(std::map<std::string, Skip>& counts, const std::string& why) {
        Skip& s = counts[why];
        if (s.count++ == 0 && pos) {
            s.offset = pos->offset;
            s.line = batch->lineOf(pos->inBatch);
        }
    }
    void skip(const std::string& why) { count(skips, why); }
    std::map<std::string, Skip> skippedCounterValues; // by why (an event may hold several)
    void skipCounterValue(const std::string& why) { count(skippedCounterValues, why); }
    std::map<std::string, Skip> repairs;
    void repaired(const std::string& why) { count(repairs, why); }

    int64_t resolveId(const IdField& f, int64_t fallback, bool isPid, int64_t pidForTid) {
        if (!f.present) return fallback;
        if (!f.isString) return f.num;
        auto [it, inserted] =
            stringIds.try_emplace(std::string(f.text), kStringIdBase + int64_t(stringIds.size()));
        if (inserted) {
            if (isPid)
                stringProcessNames.emplace_back(it->second, std::string(f.text));
            else
                stringThreadNames.push_back({{pidForTid, it->second}, std::string(f.text)});
        }
        return it->second;
    }

    SliceKind kindOf(StringId cat) {
        if (cat >= kindCache.size()) kindCache.resize(cat + 64, 0);
        if (kindCache[cat] == 0)
            kindCache[cat] = int8_t(int(sliceKindFromCategory(b.strings().view(cat))) + 1);
        return SliceKind(kindCache[cat] - 1);
    }

    bool dropArgs = false; // the splitter flagged the event's args (too deep, too large)
    const ArgItem* arg(std::string_view key) const {
        const Event& ev = *evp;
        if (dropArgs) return nullptr;
        for (const ArgItem& a : ev.args)
            if (a.key == key) return &a;
        return nullptr;
    }
    static bool argInt(const ArgItem* a, int64_t* out) {
        if (!a) return false;
        switch (a->type) {
        case ArgValue::Type::Int:
            *out = a->i;
            return true;
        case ArgValue::Type::UInt:
            *out = int64_t(a->u);
            return true;
        case ArgValue::Type::Double:
            if (!std::isfinite(a->d) || std::fabs(a->d) > 9e18) return false;
            *out = int64_t(a->d);
            return true;
        case ArgValue::Type::String:
            return parseInt64(a->s, out);
        default:
            return false;
        }
    }

    // Args go to the ArgStore; "correlation" and "External id" that were taken into the slice's
    // typed fields (SliceExtra) are not stored twice (they would also make every set unique).
    ArgSetId storeArgs(bool correlationKept = false, bool externalIdKept = false);

    void fillGpu(GpuActivity& g, SliceKind kind, int32_t device, int64_t stream);

    uint64_t flowId(const IdField& f) const {
        if (!f.isString) return uint64_t(f.num);
        uint64_t v;
        if (parseHexU64(f.text, &v)) return v; // as Perfetto: string flow ids are hex
        return fnv1a(f.text);
    }

    // The handlers, one per kind of event (json_event_handlers.cpp).
    void dispatch();
    void sliceEvent(char ph, int64_t pid, int64_t tid, StringId name, StringId cat);
    SliceKind kindByContent(char ph, int64_t pid);
    void counterEvent(int64_t pid);
    void asyncEvent(char ph, int64_t pid, StringId name, StringId cat);
    void flowEvent(char ph, int64_t pid, int64_t tid, StringId name, StringId cat);
    void metadataEvent(int64_t pid, int64_t tid);

    // Slow path after a batch failed: parse events one by one from `from` to find the bad one.
    // The slow path after the walk of a batch stopped at a malformed event (json_event_parser.cpp).
    bool parseOneByOne(const EventBatch& batch, size_t from, LoadError* error);
    bool parseAlone(std::string text, EventBatch::Pos at, bool inside, LoadError* error);
    simdjson::error_code readText(std::string& text, const char** where);
    std::map<std::string, Skip> damaged; // malformed events skipped, by why
    uint64_t badInARow = 0;
    EventBatch::Pos firstBadInARow{};
    uint64_t firstBadLine = 0; // its line

    // The walk into Event fields runs on the splitter's thread (prepare) or here; this thread
    // only hands the fields to the builder.
    JsonBatchWalker walker;

    bool parseBatch(EventBatch& batch, LoadError* error);
};
} // namespace strata
