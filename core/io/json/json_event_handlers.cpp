// The JSON reader's handlers: each kind of Chrome trace event (by its "ph") into TraceBuilder
// calls, skipped and counted when it cannot be used.
#include "io/json/json_event_parser_impl.h" // first: sets the target for everything below

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

#include "io/json/json_device_events.h"
#include "io/json/json_gpu_args.h"
#include "io/load_preview.h"

namespace strata {

void ChromeEventParser::Impl::dispatch() {
    const Event& ev = *evp;
    ++eventsParsed;
    const char ph = ev.ph;
    dropArgs = pos && pos->flags;
    if (pos && (pos->flags & kEventArgsTooDeep))
        repaired("args nested deeper than 64 levels, dropped (the event kept)");
    if (pos && (pos->flags & kEventArgsTooLarge))
        repaired("larger than 64 MiB: its args dropped (the event kept)");
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
    case 'R':
        return sliceEvent(ph, pid, tid, name, cat);
    case 'C':
        return counterEvent(pid);
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'F':
        return asyncEvent(ph, pid, name, cat);
    case 's':
    case 't':
    case 'f':
        return flowEvent(ph, pid, tid, name, cat);
    default: {
        std::string why = "event with unsupported phase '";
        why += (ph >= 0x20 && ph < 0x7f) ? ph : '?';
        why += '\'';
        return skip(why);
    }
    }
}

// X (complete), B and E (begin, end), i, I and R (instants).
void ChromeEventParser::Impl::sliceEvent(char ph, int64_t pid, int64_t tid, StringId name,
                                         StringId cat) {
    const Event& ev = *evp;
    if (ph == 'X' && (!ev.hasDur || ev.badDur)) return skip("'X' event without a numeric \"dur\"");
    if (ph == 'X' && ev.dur < 0) return skip("'X' event with a negative \"dur\"");
    if (ph == 'X' && !spanInRange(ev.ts, ev.dur))
        return skip("'X' event that ends out of range (ts + dur past 2^62 ns)");
    SliceKind kind = ev.hasCat ? kindOf(cat) : SliceKind::Generic;
    if (kind == SliceKind::Generic && (ph == 'X' || ph == 'B')) kind = kindByContent(ph, pid);
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
        if (preview && ph == 'X' && kind != SliceKind::GpuUserAnnotation)
            preview->gpu(int32_t(device), stream, ev.ts, ev.dur);
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
        if (preview && ph == 'X') preview->cpu(pid, tid, ev.ts, ev.dur);
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

// The kind of a slice event whose category names none: device work or a runtime call by what
// its args carry (io/json/json_device_events.h); one that looks like device work but is not
// taken as such is counted for a warning naming its category.
SliceKind ChromeEventParser::Impl::kindByContent(char ph, int64_t pid) {
    const Event& ev = *evp;
    if (dropArgs || ev.args.empty()) return SliceKind::Generic;
    DeviceArgs a;
    for (const ArgItem& item : ev.args) {
        int64_t v;
        if (isQueueArgKey(item.key))
            a.queue = true;
        else if (item.key == "correlation")
            a.correlation = true;
        else if (item.key == "device" && argInt(&item, &v))
            a.device = v;
    }
    if (!a.queue && !a.correlation && !a.device) return SliceKind::Generic;
    const DeviceKind k = deviceKindOf(SliceKind::Generic, ev.hasCat ? ev.cat : "", ph, pid, a);
    if (!k.notTakenWhy.empty()) repaired(k.notTakenWhy);
    return k.kind;
}

// b, e, n (async nestable), S and F (old async): one track per (category, id, id2 scope), named
// after the first event of it in the file. Events of one id nest on it by time, as Perfetto
// nests them: a b inside an open b is its child; an e closes the innermost open b of its name
// (the innermost open one when it has no name).
void ChromeEventParser::Impl::asyncEvent(char ph, int64_t pid, StringId name, StringId cat) {
    const Event& ev = *evp;
    if (!ev.id.present) return skip("async event without \"id\"");
    std::string cookieText(ev.cat);
    cookieText += '\x1f';
    cookieText += ev.id.isString ? std::string(ev.id.text) : std::to_string(ev.id.num);
    cookieText += '\x1f';
    cookieText.append(ev.id2Text);
    const uint64_t cookie = fnv1a(cookieText);
    const StringId trackName = asyncTrackNames.try_emplace({pid, cookie}, name).first->second;
    const TrackId track = b.asyncTrack(pid, trackName, cookie);
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
        b.addEnd(track, ev.ts, ev.hasName ? name : 0, storeArgs());
    }
    return;
}

// s, t, f: flow v1, bound at build time.
void ChromeEventParser::Impl::flowEvent(char ph, int64_t pid, int64_t tid, StringId name,
                                        StringId cat) {
    const Event& ev = *evp;
    if (!ev.id.present) return skip("flow event without \"id\"");
    using P = TraceBuilder::FlowPhase;
    const P phase = ph == 's' ? P::Start : ph == 't' ? P::Step : P::End;
    b.addFlowV1(phase, threadTrack(pid, tid), ev.ts, flowId(ev.id), cat, name,
                ph != 'f' || ev.bp == 'e');
    return;
}

namespace {

// A counter value written as text, as JavaScript's Number() reads it: spaces around it and a
// leading '+' allowed ("+10.5", " 3 "); nullopt when it is not a number.
std::optional<double> numberInText(std::string_view s, bool* outOfRange) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    if (s.size() > 1 && s.front() == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
    double value = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), value);
    if (r.ptr != s.data() + s.size() || r.ec != std::errc() || s.empty()) {
        *outOfRange = r.ec == std::errc::result_out_of_range;
        return std::nullopt;
    }
    return value;
}

} // namespace

// C: one counter track per (pid, name [id], arg key). A value that is not a finite number (NaN,
// an infinity, past the double range) is skipped and counted as a value (an event may hold
// several).
void ChromeEventParser::Impl::counterEvent(int64_t pid) {
    const Event& ev = *evp;
    std::string base(ev.name);
    if (ev.id.present) {
        base += " id: ";
        base += ev.id.isString ? std::string(ev.id.text) : std::to_string(ev.id.num);
    }
    if (ev.args.empty()) skip("counter event without args");
    for (const ArgItem& a : ev.args) {
        std::optional<double> value;
        bool outOfRange = false;
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
        case ArgValue::Type::String: // "+10.5", "NaN"
        case ArgValue::Type::Json:   // a number kept as text: past 64 bits (1e20), or 1e400
            value = numberInText(a.s, &outOfRange);
            break;
        default:
            break;
        }
        if (!value) {
            skipCounterValue(outOfRange ? "out of double range" : "not a number");
            continue;
        }
        if (!std::isfinite(*value)) { // "NaN", "Infinity", 1e400: no height to draw
            skipCounterValue(a.type == ArgValue::Type::Json ? "out of double range"
                                                            : "not finite (NaN or infinity)");
            continue;
        }
        std::string name = base;
        name += ' ';
        name.append(a.key);
        b.addCounter(b.counterTrack(pid, b.intern(name)), ev.ts, *value);
    }
}

// M: process and thread names, labels and sort indices.
void ChromeEventParser::Impl::metadataEvent(int64_t pid, int64_t tid) {
    const Event& ev = *evp;
    const ArgItem* a = nullptr;
    if (ev.name == "process_name" || ev.name == "thread_name" || ev.name == "process_labels") {
        a = arg(ev.name == "process_labels" ? "labels" : "name");
        if (!a || a->type != ArgValue::Type::String) {
            skip("metadata event '" + std::string(ev.name) + "' without a string value");
            return;
        }
        const StringId v = b.intern(a->s);
        // Strata's export: the id this one replaces, and a made-up name ("Thread 12") that
        // is no name at all (io/set/part_ids.h).
        const ArgItem* unnamedArg = arg("strata_unnamed");
        const bool unnamed =
            unnamedArg && unnamedArg->type == ArgValue::Type::Bool && unnamedArg->b;
        int64_t original;
        if (!unnamed && preview && ev.name != "process_labels")
            preview->name(pid, ev.name == "thread_name" ? std::optional(tid) : std::nullopt, a->s);
        if (ev.name == "process_name") {
            if (!unnamed) b.setProcessName(pid, v);
            if (argInt(arg("strata_pid"), &original)) b.setProcessOriginalPid(pid, original);
            namedProcesses.insert(pid);
        } else if (ev.name == "thread_name") {
            if (!unnamed) b.setThreadName(pid, tid, v);
            if (argInt(arg("strata_tid"), &original)) b.setThreadOriginalTid(pid, tid, original);
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

ArgSetId ChromeEventParser::Impl::storeArgs(bool correlationKept, bool externalIdKept) {
    if (dropArgs) return kNoArgs;
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

void ChromeEventParser::Impl::fillGpu(GpuActivity& g, SliceKind kind, int32_t device,
                                      int64_t stream) {
    const Event& ev = *evp;
    g.device = device;
    g.stream = stream;
    int64_t v;
    if (argInt(arg("context"), &v)) g.context = v;
    if (argInt(arg("registers per thread"), &v)) g.registersPerThread = int32_t(v);
    // Kineto's "shared memory" is static + dynamic; Strata's export also writes the two parts.
    if (argInt(arg("static shared memory"), &v))
        g.staticSharedBytes = int32_t(v);
    else if (argInt(arg("shared memory"), &v))
        g.staticSharedBytes = int32_t(v);
    if (argInt(arg("dynamic shared memory"), &v)) g.dynamicSharedBytes = int32_t(v);
    if (argInt(arg("bytes"), &v)) g.bytes = v;
    if (const ArgItem* a = arg("grid"); a && a->type == ArgValue::Type::Json)
        parseDim3(a->s, &g.grid);
    if (const ArgItem* a = arg("block"); a && a->type == ArgValue::Type::Json)
        parseDim3(a->s, &g.block);
    if (kind == SliceKind::Memcpy || kind == SliceKind::Memset) parseCopyName(ev.name, &g);
}

} // namespace strata
