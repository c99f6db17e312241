// The Model record's JSON: the sizes of every array (the reader sizes the model from them before
// the parts arrive) and the model's small, structured parts (processes, threads, devices,
// metadata, warnings, the run, colours, the section sets' fields, the source file).
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_header_parse.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "io/strata/strata_format.h"

#include <nlohmann/json.hpp>

namespace strata {
namespace {

using nlohmann::json;
using namespace snapshot;

// What the trace was read from (io/cache/file_stamp.h); the fields after the format are absent
// from files written before they were kept (0).
SnapshotSource readSource(const json& src) {
    SnapshotSource s{
        src.at("path").get<std::string>(), whole<uint64_t>(src.at("size"), "source size"),
        whole<int64_t>(src.at("mtime_ns"), "source mtime"), src.at("format").get<std::string>()};
    // The fields after the format are absent from files written before they were kept (0).
    s.ctimeNs = whole<int64_t>(src.value("ctime_ns", json(0)), "source ctime");
    s.device = whole<uint64_t>(src.value("device", json(0)), "source device");
    s.inode = whole<uint64_t>(src.value("inode", json(0)), "source inode");
    s.contentHash = whole<uint64_t>(src.value("content_hash", json(0)), "source content hash");
    return s;
}

json indexSizes(const IdIndex& x) {
    return {{"places", x.places},
            {"dense_lo", x.denseLo},
            {"dense", x.denseCount.size()},
            {"listed", x.listIds.size()}};
}

void sizeIndex(const json& j, IdIndex& x) {
    x.places = whole<uint8_t>(j.at("places"), "index places");
    x.denseLo = whole<int64_t>(j.at("dense_lo"), "index dense_lo");
    const size_t dense = whole<size_t>(j.at("dense"), "index dense ids");
    const size_t listed = whole<size_t>(j.at("listed"), "index listed ids");
    // Ids are not negative: denseLo + i never overflows.
    if (dense && (x.denseLo < 0 || dense - 1 > uint64_t(INT64_MAX - x.denseLo)))
        throw HeaderError("an id index's dense ids run past the ids");
    x.denseCount.resize_for_overwrite(dense);
    x.densePlaces.resize_for_overwrite(dense * x.places);
    x.listIds.resize_for_overwrite(listed);
    x.listRefs.resize_for_overwrite(listed);
}

json optionalInt(const std::optional<int64_t>& v) {
    return v ? json(*v) : json(nullptr);
}
static_assert(sizeof(SliceExtra) == 16 && sizeof(SliceRef) == 8 && sizeof(Flow) == 32 &&
              sizeof(SectionSample) == 40);

// The least number of bytes the parts of the trace's own arrays and the section sets' take (the
// tracks' are counted as they are parsed), then an end-of-file record in a chunk.
double arrayBytes(const json& j, const std::vector<size_t>& sectionSamples) {
    const auto n = [](const json& v) { return double(whole<size_t>(v, "an array size")); };
    const json& sizes = j.at("sizes");
    const double flows = n(sizes.at("flows"));
    double total =
        arrayCost(n(j.at("strings").at("bytes")), 1) +
        arrayCost(n(j.at("strings").at("count")), 4) + arrayCost(n(sizes.at("extras")), 16) +
        arrayCost(n(sizes.at("gpu")), 83) + arrayCost(n(sizes.at("external_ids")), 8) +
        arrayCost(n(sizes.at("arg_bytes")), 1) + arrayCost(n(sizes.at("arg_offsets")), 8) +
        arrayCost(flows, 32) + 2 * arrayCost(flows, 4);
    for (const char* index : {"correlation_index", "external_index"}) {
        const json& x = j.at(index);
        const double dense = n(x.at("dense")), listed = n(x.at("listed"));
        total += arrayCost(dense, 1) +
                 arrayCost(dense * double(whole<uint8_t>(x.at("places"), "index places")), 8) +
                 2 * arrayCost(listed, 8);
    }
    for (const size_t samples : sectionSamples)
        total += arrayCost(double(samples), double(sizeof(SectionSample)));
    if (j.contains("stack_samples")) {
        const json& k = j.at("stack_samples");
        const double callsites = n(k.at(0)) + 1, samples = n(k.at(1)), threads = n(k.at(2));
        total += 2 * arrayCost(callsites, 4) + arrayCost(samples, 8) + arrayCost(samples, 4) +
                 arrayCost(samples, 1) + arrayCost(threads, double(sizeof(SampleThread)));
    }
    return total + double(format::kChunkHeaderBytes + format::kRecordHeaderBytes);
}

// The counts that must agree before anything is sized: the trace's counts are its tracks' sums,
// its bounds are in order and in range.
void checkCounts(const json& j) {
    size_t sums[3] = {0, 0, 0}, i = 0;
    for (const json& k : j.at("tracks")) {
        const TrackCounts c = trackCounts(k, i++);
        sums[0] += c.slices, sums[1] += c.samples, sums[2] += c.instants;
    }
    const char* names[3] = {"slices", "counter samples", "instants"};
    for (int c = 0; c < 3; ++c)
        if (whole<size_t>(j.at("counts").at(c), "a count") != sums[c])
            throw HeaderError(std::string("the trace's count of ") + names[c] +
                              " is not its tracks' sum");
    const TimeNs lo = whole<TimeNs>(j.at("bounds").at(0), "the bounds' start");
    const TimeNs hi = whole<TimeNs>(j.at("bounds").at(1), "the bounds' end");
    if (!(timeInRange(lo) && timeInRange(hi) && lo <= hi))
        throw HeaderError("bounds out of order or out of range");
}

// Each track's fields, its columns sized by its counts.
void sizeTracks(const json& tracks, std::vector<Track>& out) {
    out.reserve(tracks.size());
    size_t i = 0;
    for (const json& k : tracks) {
        Track& tr = out.emplace_back();
        tr.kind = TrackKind(whole<uint8_t>(k.at(0), "track %zu's kind", i));
        if (tr.kind > TrackKind::GlobalInstants)
            throw HeaderError("track " + std::to_string(i) + " of an unknown kind");
        tr.pid = whole<int64_t>(k.at(1), "track %zu's pid", i);
        tr.tid = whole<int64_t>(k.at(2), "track %zu's tid", i);
        tr.device = whole<int32_t>(k.at(3), "track %zu's device", i);
        tr.lane = whole<uint32_t>(k.at(4), "track %zu's lane", i);
        tr.name = whole<StringId>(k.at(5), "track %zu's name", i);
        tr.cookie = whole<uint64_t>(k.at(6), "track %zu's cookie", i);
        tr.maxDepth = whole<uint16_t>(k.at(7), "track %zu's depth", i);
        tr.maxDuration = whole<TimeNs>(k.at(8), "track %zu's longest slice", i);
        const TrackCounts c = trackCounts(k, i++);
        const size_t n = c.slices;
        SliceColumns& s = tr.slices;
        s.start.resize(n), s.dur.resize(n), s.name.resize(n), s.category.resize(n);
        s.parent.resize(n), s.args.resize(n), s.extra.resize(n), s.depth.resize(n);
        s.kind.resize(n), s.flags.resize(n);
        tr.counter.ts.resize(c.samples), tr.counter.value.resize(c.samples);
        tr.instants.ts.resize(c.instants), tr.instants.name.resize(c.instants);
        tr.instants.category.resize(c.instants), tr.instants.args.resize(c.instants);
    }
}

// The stack samples' columns sized (their sizes fit the file: arrayBytes counted them).
void sizeStackSamples(const json& k, StackSamples& s) {
    if (!k.is_array() || k.size() != 3) throw HeaderError("stack_samples of the wrong shape");
    const size_t callsites = whole<size_t>(k.at(0), "the callsite count");
    const size_t samples = whole<size_t>(k.at(1), "the stack sample count");
    const size_t threads = whole<size_t>(k.at(2), "the stack sample threads");
    if (callsites == 0 && samples == 0) throw HeaderError("stack_samples that hold nothing");
    s.callsiteParent.resize(callsites + 1);
    s.callsiteFrame.resize(callsites + 1);
    s.ts.resize(samples);
    s.callsite.resize(samples);
    s.kind.resize(samples);
    s.threads.resize(threads);
}

RunInfo readRun(const json& r) {
    RunInfo run;
    if (const std::string bad = runInfoFromJson(r.at("json").get<std::string>(), &run);
        !bad.empty())
        throw HeaderError("the run: " + bad);
    run.pid = whole<int64_t>(r.at("pid"), "the run's pid");
    if (!r.at("exit_code").is_null()) run.exitCode = whole<int>(r.at("exit_code"), "exit code");
    if (!r.at("signal").is_null()) run.signal = whole<int>(r.at("signal"), "the run's signal");
    run.startUnixNs = whole<int64_t>(r.at("start_unix_ns"), "the run's start");
    run.durationNs = whole<int64_t>(r.at("duration_ns"), "the run's duration");
    return run;
}

} // namespace

std::string TraceSnapshot::headerJson(const Trace& t, const SnapshotSource& source) {
    json j;
    j["source"] = {{"path", source.path},        {"size", source.size},
                   {"mtime_ns", source.mtimeNs}, {"format", source.format},
                   {"ctime_ns", source.ctimeNs}, {"device", source.device},
                   {"inode", source.inode},      {"content_hash", source.contentHash}};
    size_t stringBytes = 0;
    for (size_t i = 0; i < t.strings_.size(); ++i)
        stringBytes += t.strings_.view(StringId(i)).size();
    j["strings"] = {{"count", t.strings_.size()}, {"bytes", stringBytes}};
    j["sizes"] = {{"extras", t.extras_.size()},
                  {"gpu", t.gpu_.size()},
                  {"external_ids", t.externalIds_.size()},
                  {"arg_bytes", t.args_.bytes_.size()},
                  {"arg_offsets", t.args_.offsets_.size()},
                  {"flows", t.flows_.size()}};
    j["correlation_index"] = indexSizes(t.correlationIndex_);
    j["external_index"] = indexSizes(t.externalIndex_);
    j["bounds"] = {t.bounds_.start, t.bounds_.end};
    j["counts"] = {t.sliceCount_, t.counterSampleCount_, t.instantCount_};
    json tracks = json::array();
    for (const Track& k : t.tracks_)
        tracks.push_back({uint8_t(k.kind), k.pid, k.tid, k.device, k.lane, k.name, k.cookie,
                          k.maxDepth, k.maxDuration, k.slices.size(), k.counter.size(),
                          k.instants.size()});
    j["tracks"] = std::move(tracks);
    json processes = json::array();
    for (const Process& p : t.processes_)
        processes.push_back(
            {p.pid, p.name, p.sortIndex, p.hasSortIndex, p.labels, optionalInt(p.originalPid)});
    j["processes"] = std::move(processes);
    json threads = json::array();
    for (const Thread& h : t.threads_)
        threads.push_back(
            {h.pid, h.tid, h.name, h.sortIndex, h.hasSortIndex, optionalInt(h.originalTid)});
    j["threads"] = std::move(threads);
    json devices = json::array();
    for (const DeviceInfo& d : t.devices_)
        devices.push_back({d.id, d.name, d.smCount, d.totalMemoryBytes, d.computeMajor,
                           d.computeMinor, d.clockRateKHz, d.memoryClockRateKHz});
    j["devices"] = std::move(devices);
    j["metadata"] = t.metadata_;
    j["warnings"] = t.warnings_;
    if (t.run_) {
        const RunInfo& r = *t.run_;
        j["run"] = {{"json", runInfoToJson(r)},
                    {"pid", r.pid},
                    {"exit_code", r.exitCode ? json(*r.exitCode) : json(nullptr)},
                    {"signal", r.signal ? json(*r.signal) : json(nullptr)},
                    {"start_unix_ns", r.startUnixNs},
                    {"duration_ns", r.durationNs}};
    }
    json colors = json::array();
    for (const auto& [name, argb] : t.nameColors_) colors.push_back({name, argb});
    j["name_colors"] = std::move(colors);
    json sections = json::array();
    for (const SectionSet& s : t.sections_)
        sections.push_back({{"kernel", s.kernel},
                            {"correlation", s.correlation},
                            {"device", s.device},
                            {"clock_hz", s.clockHz},
                            {"has_times", s.hasTimes},
                            {"per_warp", s.perWarp},
                            {"lost", s.lost},
                            {"source", s.source},
                            {"names", s.names},
                            {"samples", s.samples.size()}});
    j["sections"] = std::move(sections);
    const StackSamples& k = t.stackSamples_;
    if (k.callsiteCount() || !k.empty())
        j["stack_samples"] = {k.callsiteCount(), k.size(), k.threads.size()};
    // Invalid UTF-8 (a name cut by a writer) is kept byte for byte rather than refused.
    return j.dump(-1, ' ', false, json::error_handler_t::ignore);
}

std::string TraceSnapshot::applyHeader(std::string_view text, size_t partBytes, Trace& t,
                                       SnapshotSource* source, size_t* stringCount,
                                       size_t* stringBytes) {
    try {
        HeaderLists lists{t.processes_, t.threads_,    t.devices_,  t.metadata_,
                          t.warnings_,  t.nameColors_, t.sections_, {}};
        double least = 0; // the tracks' arrays, then all
        const json j = parseHeader(text, partBytes, lists, &least);
        if (!j.is_object()) return "the Model record's JSON does not parse";
        for (const char* key :
             {"tracks", "processes", "threads", "devices", "warnings", "name_colors", "sections"})
            if (!j.at(key).is_array()) throw HeaderError(std::string(key) + " of the wrong shape");
        if (!j.at("metadata").is_object()) throw HeaderError("metadata of the wrong shape");
        // What the arrays claim, at most what the file holds, and the counts agreeing, before
        // anything is allocated.
        if (least += arrayBytes(j, lists.sectionSamples); least > double(partBytes))
            return "the Model record's " + moreThanTheFile(least, partBytes);
        checkCounts(j);
        *source = readSource(j.at("source"));
        *stringCount = whole<size_t>(j.at("strings").at("count"), "the string count");
        *stringBytes = whole<size_t>(j.at("strings").at("bytes"), "the string bytes");
        const json& sizes = j.at("sizes");
        const auto size = [&](const char* key) { return whole<size_t>(sizes.at(key), key); };
        t.extras_.resize_for_overwrite(size("extras"));
        t.gpu_.resize_for_overwrite(size("gpu"));
        t.externalIds_.resize_for_overwrite(size("external_ids"));
        t.args_.bytes_.resize_for_overwrite(size("arg_bytes"));
        t.args_.offsets_.resize_for_overwrite(size("arg_offsets"));
        const size_t flows = size("flows");
        t.flows_.resize(flows);
        t.flowsByFrom_.resize(flows);
        t.flowsByTo_.resize(flows);
        sizeIndex(j.at("correlation_index"), t.correlationIndex_);
        sizeIndex(j.at("external_index"), t.externalIndex_);
        t.bounds_ = {j.at("bounds").at(0).get<TimeNs>(), j.at("bounds").at(1).get<TimeNs>()};
        t.sliceCount_ = j.at("counts").at(0).get<size_t>();
        t.counterSampleCount_ = j.at("counts").at(1).get<size_t>();
        t.instantCount_ = j.at("counts").at(2).get<size_t>();
        sizeTracks(j.at("tracks"), t.tracks_);
        for (size_t i = 0; i < t.sections_.size(); ++i)
            t.sections_[i].samples.resize(lists.sectionSamples[i]);
        if (j.contains("run")) t.run_ = readRun(j.at("run"));
        if (j.contains("stack_samples")) sizeStackSamples(j.at("stack_samples"), t.stackSamples_);
    } catch (const json::exception& e) {
        return std::string("the Model record's JSON: ") + e.what();
    } catch (const HeaderError& e) {
        return std::string("the Model record's JSON: ") + e.what();
    }
    return {};
}

std::optional<SnapshotSource> snapshot::sourceFromHeader(const std::string& text,
                                                         std::string* error) {
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    try {
        if (j.is_object()) return readSource(j.at("source"));
        *error = "the Model record's JSON does not parse";
    } catch (const json::exception& e) {
        *error = std::string("the Model record's JSON: ") + e.what();
    }
    return std::nullopt;
}

} // namespace strata
