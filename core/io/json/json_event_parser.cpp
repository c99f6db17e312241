#include "io/json/json_simdjson.h" // first: sets the target for everything below

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "io/json/json_batch_walker.h"
#include "io/json/json_decimal.h"
#include "io/json/json_event_fields.h"
#include "io/json/json_event_parser.h"
#include "io/json/json_gpu_args.h"
#include "io/json/json_top_level.h"

namespace strata {
namespace od = simdjson::ondemand;

#ifdef STRATA_SIMDJSON_HASWELL
extern const bool kJsonParserNeedsAvx2 = true;
#else
extern const bool kJsonParserNeedsAvx2 = false;
#endif

namespace {

uint64_t fnv1a(std::string_view a, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : a) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Synthetic ids for string pids/tids that are not numbers ("stream 7" stays a name).
constexpr int64_t kStringIdBase = int64_t(1) << 48;

bool isGpuTrackKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset ||
           k == SliceKind::GpuUserAnnotation;
}

int64_t trailingInt(std::string_view s, int64_t fallback) {
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

} // namespace

struct ChromeEventParser::Impl {
    TraceBuilder& b;
    od::parser parser;
    Event scratch;               // an event read by locateError()
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

    const ArgItem* arg(std::string_view key) const {
        const Event& ev = *evp;
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
    ArgSetId storeArgs(bool correlationKept = false, bool externalIdKept = false) {
        const Event& ev = *evp;
        if (ev.args.empty()) return kNoArgs;
        ArgStore& st = b.args();
        st.begin();
        for (const ArgItem& a : ev.args) {
            if ((correlationKept && a.key == "correlation") ||
                (externalIdKept && a.key == "External id"))
                continue;
            const StringId key = intern(a.key);
            switch (a.type) {
            case ArgValue::Type::Null:
                st.addNull(key);
                break;
            case ArgValue::Type::Bool:
                st.addBool(key, a.b);
                break;
            case ArgValue::Type::Int:
                st.addInt(key, a.i);
                break;
            case ArgValue::Type::UInt:
                st.addUInt(key, a.u);
                break;
            case ArgValue::Type::Double:
                st.addDouble(key, a.d);
                break;
            case ArgValue::Type::String:
                st.addString(key, a.s);
                break;
            case ArgValue::Type::Json:
                st.addJson(key, a.s);
                break;
            }
        }
        return st.finish();
    }

    void fillGpu(GpuActivity& g, SliceKind kind, int32_t device, int64_t stream) {
        const Event& ev = *evp;
        g.device = device;
        g.stream = stream;
        int64_t v;
        if (argInt(arg("context"), &v)) g.context = v;
        if (argInt(arg("registers per thread"), &v)) g.registersPerThread = int32_t(v);
        if (argInt(arg("shared memory"), &v)) g.staticSharedBytes = int32_t(v);
        if (argInt(arg("bytes"), &v)) g.bytes = v;
        if (const ArgItem* a = arg("grid"); a && a->type == ArgValue::Type::Json)
            parseDim3(a->s, &g.grid);
        if (const ArgItem* a = arg("block"); a && a->type == ArgValue::Type::Json)
            parseDim3(a->s, &g.block);
        if (kind == SliceKind::Memcpy || kind == SliceKind::Memset) parseCopyName(ev.name, &g);
    }

    void metadataEvent(int64_t pid, int64_t tid) {
        const Event& ev = *evp;
        const ArgItem* a = nullptr;
        if (ev.name == "process_name" || ev.name == "thread_name" || ev.name == "process_labels") {
            a = arg(ev.name == "process_labels" ? "labels" : "name");
            if (!a || a->type != ArgValue::Type::String) {
                skip("metadata event '" + std::string(ev.name) + "' without a string value");
                return;
            }
            const StringId v = b.intern(a->s);
            if (ev.name == "process_name") {
                b.setProcessName(pid, v);
                namedProcesses.insert(pid);
            } else if (ev.name == "thread_name") {
                b.setThreadName(pid, tid, v);
                namedThreads.insert({pid, tid});
            } else {
                b.addProcessLabel(pid, v);
            }
            return;
        }
        if (ev.name == "process_sort_index" || ev.name == "thread_sort_index") {
            int64_t idx;
            if (!argInt(arg("sort_index"), &idx)) {
                skip("metadata event '" + std::string(ev.name) + "' without an integer sort_index");
                return;
            }
            idx = std::clamp<int64_t>(idx, INT32_MIN, INT32_MAX);
            if (ev.name == "process_sort_index")
                b.setProcessSortIndex(pid, int32_t(idx));
            else
                b.setThreadSortIndex(pid, tid, int32_t(idx));
            return;
        }
        skip("metadata event '" + std::string(ev.name) + "' (not used)");
    }

    uint64_t flowId(const IdField& f) const {
        if (!f.isString) return uint64_t(f.num);
        uint64_t v;
        if (parseHexU64(f.text, &v)) return v; // as Perfetto: string flow ids are hex
        return fnv1a(f.text);
    }

    void counterEvent(int64_t pid) {
        const Event& ev = *evp;
        std::string base(ev.name);
        if (ev.id.present) {
            base += " id: ";
            base += ev.id.isString ? std::string(ev.id.text) : std::to_string(ev.id.num);
        }
        if (ev.args.empty()) skip("counter event without args");
        for (const ArgItem& a : ev.args) {
            double value;
            switch (a.type) {
            case ArgValue::Type::Int:
                value = double(a.i);
                break;
            case ArgValue::Type::UInt:
                value = double(a.u);
                break;
            case ArgValue::Type::Double:
                value = a.d;
                break;
            case ArgValue::Type::String: {
                const char* e = a.s.data() + a.s.size();
                if (std::from_chars(a.s.data(), e, value).ptr != e) {
                    skip("counter value that is not a number");
                    continue;
                }
                break;
            }
            default:
                skip("counter value that is not a number");
                continue;
            }
            std::string name = base;
            name += ' ';
            name.append(a.key);
            b.addCounter(b.counterTrack(pid, b.intern(name)), ev.ts, value);
        }
    }

    void dispatch() {
        const Event& ev = *evp;
        ++eventsParsed;
        const char ph = ev.ph;
        if (ev.numbersKeptAsText)
            repaired("kept with an args number out of range (1e400, an integer past 64 bits) as "
                     "its text");
        if (ph == 0) return skip("event without \"ph\"");
        const int64_t pid = resolveId(ev.pid, 0, true, 0);
        int64_t tid = resolveId(ev.tid, pid, false, pid);
        if (ph == 'M') return metadataEvent(pid, tid);
        if (!ev.hasTs) return skip("event without \"ts\"");
        if (ev.badTs) return skip("event whose \"ts\" is not a number of microseconds");
        if (!timeInRange(ev.ts))
            return skip("event whose \"ts\" is out of range (beyond +-2^62 ns, 146 years)");

        const StringId name = ev.hasName ? intern(ev.name) : StringPool::kEmpty;
        const StringId cat = ev.hasCat ? intern(ev.cat) : StringPool::kEmpty;
        switch (ph) {
        case 'X':
        case 'B':
        case 'E':
        case 'i':
        case 'I':
        case 'R': {
            if (ph == 'X' && (!ev.hasDur || ev.badDur))
                return skip("'X' event without a numeric \"dur\"");
            if (ph == 'X' && ev.dur < 0) return skip("'X' event with a negative \"dur\"");
            if (ph == 'X' && !spanInRange(ev.ts, ev.dur))
                return skip("'X' event that ends out of range (ts + dur past 2^62 ns)");
            const SliceKind kind = ev.hasCat ? kindOf(cat) : SliceKind::Generic;
            TrackId track;
            GpuActivity gpu;
            bool haveGpu = false;
            if (isGpuTrackKind(kind) && ph != 'i' && ph != 'I' && ph != 'R') {
                // Kineto/CUPTI sometimes writes GPU activity with "ts": 0 and "dur": 0 (a record
                // whose timestamps were never filled in); kept, it would open a gap back to 0.
                if (ph == 'X' && ev.ts == 0 && ev.dur == 0)
                    return skip("GPU event with \"ts\": 0 and \"dur\": 0 (no timestamps)");
                int64_t device = pid, stream = tid;
                int64_t v;
                if (argInt(arg("device"), &v)) device = v;
                if (argInt(arg("stream"), &v))
                    stream = v;
                else if (ev.tid.isString)
                    stream = trailingInt(ev.tid.text, tid);
                device = std::clamp<int64_t>(device, INT32_MIN, INT32_MAX);
                track = b.gpuStreamTrack(int32_t(device), stream, pid, tid);
                fillGpu(gpu, kind, int32_t(device), stream);
                haveGpu = true;
            } else if (ph == 'i' || ph == 'I' || ph == 'R') {
                if (ev.scope == 'g')
                    track = b.globalInstantTrack();
                else if (ev.scope == 'p')
                    track = b.processInstantTrack(pid);
                else
                    track = b.threadTrack(pid, tid);
                b.addInstant(track, ev.ts, name, cat, storeArgs());
                return;
            } else {
                track = threadTrack(pid, tid);
            }
            if (ph == 'E') {
                b.addEnd(track, ev.ts, ev.hasName ? name : 0, storeArgs());
                return;
            }
            SliceInput in;
            in.start = ev.ts;
            in.dur = ph == 'X' ? ev.dur : 0;
            in.name = name;
            in.category = cat;
            in.kind = kind;
            int64_t v;
            if (argInt(arg("correlation"), &v)) in.correlation = v;
            if (argInt(arg("External id"), &v)) in.externalId = v;
            if (haveGpu) in.gpu = &gpu;
            in.args = storeArgs(in.correlation >= 0, in.externalId >= 0);
            const PendingSlice ps = ph == 'X' ? b.addSlice(track, in) : b.addBegin(track, in);
            if (ev.hasBind && (ev.flowIn || ev.flowOut))
                b.addFlowV2(ps, flowId(ev.bindId), ev.flowIn, ev.flowOut);
            return;
        }
        case 'C':
            return counterEvent(pid);
        case 'b':
        case 'e':
        case 'n':
        case 'S':
        case 'F': {
            if (!ev.id.present) return skip("async event without \"id\"");
            std::string cookieText(ev.cat);
            cookieText += '\x1f';
            cookieText += ev.id.isString ? std::string(ev.id.text) : std::to_string(ev.id.num);
            cookieText += '\x1f';
            cookieText.append(ev.id2Text);
            const TrackId track = b.asyncTrack(pid, name, fnv1a(cookieText));
            if (ph == 'n') {
                b.addInstant(track, ev.ts, name, cat, storeArgs());
            } else if (ph == 'b' || ph == 'S') {
                SliceInput in;
                in.start = ev.ts;
                in.name = name;
                in.category = cat;
                in.kind = ev.hasCat ? kindOf(cat) : SliceKind::Generic;
                in.args = storeArgs();
                const PendingSlice ps = b.addBegin(track, in);
                if (ev.hasBind && (ev.flowIn || ev.flowOut))
                    b.addFlowV2(ps, flowId(ev.bindId), ev.flowIn, ev.flowOut);
            } else {
                b.addEnd(track, ev.ts, 0, storeArgs());
            }
            return;
        }
        case 's':
        case 't':
        case 'f': {
            if (!ev.id.present) return skip("flow event without \"id\"");
            using P = TraceBuilder::FlowPhase;
            const P phase = ph == 's' ? P::Start : ph == 't' ? P::Step : P::End;
            b.addFlowV1(phase, threadTrack(pid, tid), ev.ts, flowId(ev.id), cat, name,
                        ph != 'f' || ev.bp == 'e');
            return;
        }
        default: {
            std::string why = "event with unsupported phase '";
            why += (ph >= 0x20 && ph < 0x7f) ? ph : '?';
            why += '\'';
            return skip(why);
        }
        }
    }

    // Slow path after a batch failed: parse events one by one from `from` to find the bad one.
    bool locateError(const EventBatch& batch, size_t from, LoadError* error) {
        std::string one;
        for (size_t i = from; i < batch.events.size(); ++i) {
            const size_t begin = batch.events[i].inBatch;
            size_t end = i + 1 < batch.events.size() ? batch.events[i + 1].inBatch
                                                     : batch.data.size() - 1; // before ']'
            while (end > begin && (batch.data[end - 1] == '\n' || batch.data[end - 1] == ','))
                --end; // the separator: ',' and newlines
            one.assign(batch.data, begin, end - begin);
            one.reserve(one.size() + simdjson::SIMDJSON_PADDING);
            pos = &batch.events[i];
            scratch.reset();
            od::document doc;
            od::object obj;
            simdjson::error_code err =
                parser.iterate(simdjson::padded_string_view(one.data(), one.size(), one.capacity()))
                    .get(doc);
            const bool iterated = !err;
            if (!err) err = doc.get_object().get(obj);
            if (!err) err = readEvent(obj, scratch);
            if (err == simdjson::UTF8_ERROR) {
                skip("event with invalid UTF-8");
                continue;
            }
            if (err) {
                uint64_t off = batch.events[i].offset;
                size_t inBatch = batch.events[i].inBatch;
                const char* loc = nullptr;
                if (iterated && !doc.current_location().get(loc) && loc >= one.data() &&
                    loc < one.data() + one.size()) {
                    off += uint64_t(loc - one.data());
                    inBatch += size_t(loc - one.data());
                }
                const uint64_t line = batch.lineOf(inBatch);
                error->byteOffset = off;
                error->line = line;
                error->message = std::string("expected a valid JSON event object: ") +
                                 simdjson::error_message(err);
                return false;
            }
            evp = &scratch;
            dispatch();
        }
        return true;
    }

    // The walk into Event fields runs on the splitter's thread (prepare) or here; this thread
    // only hands the fields to the builder.
    JsonBatchWalker walker;

    bool parseBatch(EventBatch& batch, LoadError* error) {
        this->batch = &batch;
        const std::span<const Event> events = walker.events(batch);
        for (size_t idx = 0; idx < events.size(); ++idx) {
            pos = &batch.events[idx];
            evp = &events[idx];
            dispatch();
        }
        evp = &scratch;
        if (events.size() == batch.events.size()) return true;
        return locateError(batch, events.size(), error);
    }
};

ChromeEventParser::ChromeEventParser(TraceBuilder& builder) : d(std::make_unique<Impl>(builder)) {}
ChromeEventParser::~ChromeEventParser() = default;

void ChromeEventParser::releaseBuffers() {
    d->walker.release();
    d->parser = od::parser();
    d->scratch = Event();
}

void ChromeEventParser::prepare(EventBatch& batch, bool walk) {
    d->walker.prepare(batch, walk);
}

bool ChromeEventParser::parseBatch(EventBatch& batch, LoadError* error) {
    return d->parseBatch(batch, error);
}

uint64_t ChromeEventParser::eventsParsed() const {
    return d->eventsParsed;
}

bool ChromeEventParser::addTopLevel(const std::vector<TopLevelValue>& values, LoadError* error) {
    return applyTopLevel(d->b, values, error);
}

void ChromeEventParser::finish() {
    Impl& x = *d;
    for (const auto& [pid, text] : x.stringProcessNames)
        if (!x.namedProcesses.count(pid)) x.b.setProcessName(pid, x.b.intern(text));
    for (const auto& [key, text] : x.stringThreadNames)
        if (!x.namedThreads.count(key)) x.b.setThreadName(key.first, key.second, x.b.intern(text));
    auto warn = [&](const char* verb, const std::string& why, const Skip& s) {
        x.b.addWarning(verb + std::to_string(s.count) + " " + (s.count == 1 ? "event" : "events") +
                       ": " + why + " (first at byte " + std::to_string(s.offset) + ", line " +
                       std::to_string(s.line) + ")");
    };
    for (const auto& [why, s] : x.skips) warn("skipped ", why, s);
    for (const auto& [why, s] : x.repairs) warn("", why, s);
}

} // namespace strata
