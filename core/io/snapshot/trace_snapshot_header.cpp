// The Model record's JSON: the sizes of every array (the reader sizes the model from them before
// the parts arrive) and the model's small, structured parts (processes, threads, devices,
// metadata, warnings, the run, colours, the section sets' fields, the source file).
#include "io/snapshot/snapshot_arrays.h"
#include "io/snapshot/trace_snapshot.h"

#include <nlohmann/json.hpp>

namespace strata {
namespace {

using nlohmann::json;

// What the trace was read from (io/cache/file_stamp.h); the fields after the format are absent
// from files written before they were kept (0).
SnapshotSource readSource(const json& src) {
    SnapshotSource s{src.at("path").get<std::string>(), src.at("size").get<uint64_t>(),
                     src.at("mtime_ns").get<int64_t>(), src.at("format").get<std::string>()};
    s.ctimeNs = src.value("ctime_ns", int64_t(0));
    s.device = src.value("device", uint64_t(0));
    s.inode = src.value("inode", uint64_t(0));
    s.contentHash = src.value("content_hash", uint64_t(0));
    return s;
}

json indexSizes(const IdIndex& x) {
    return {{"places", x.places},
            {"dense_lo", x.denseLo},
            {"dense", x.denseCount.size()},
            {"listed", x.listIds.size()}};
}

void sizeIndex(const json& j, IdIndex& x) {
    x.places = j.at("places").get<uint8_t>();
    x.denseLo = j.at("dense_lo").get<int64_t>();
    const size_t dense = j.at("dense").get<size_t>(), listed = j.at("listed").get<size_t>();
    x.denseCount.resize_for_overwrite(dense);
    x.densePlaces.resize_for_overwrite(dense * x.places);
    x.listIds.resize_for_overwrite(listed);
    x.listRefs.resize_for_overwrite(listed);
}

json optionalInt(const std::optional<int64_t>& v) {
    return v ? json(*v) : json(nullptr);
}
std::optional<int64_t> readOptional(const json& j) {
    if (j.is_null()) return std::nullopt;
    return j.get<int64_t>();
}

// The bytes the header's sizes add up to in the file (a double: no overflow on hostile sizes).
double claimedBytes(const json& j) {
    const auto n = [](const json& v) { return double(v.get<size_t>()); };
    const json& sizes = j.at("sizes");
    double total = n(j.at("strings").at("bytes")) + 4 * n(j.at("strings").at("count")) +
                   16 * n(sizes.at("extras")) + 83 * n(sizes.at("gpu")) +
                   8 * n(sizes.at("external_ids")) + n(sizes.at("arg_bytes")) +
                   8 * n(sizes.at("arg_offsets")) + 40 * n(sizes.at("flows"));
    for (const char* index : {"correlation_index", "external_index"}) {
        const json& x = j.at(index);
        total += (1 + 8 * double(x.at("places").get<uint8_t>())) * n(x.at("dense")) +
                 16 * n(x.at("listed"));
    }
    for (const json& k : j.at("tracks"))
        total += 40 * n(k.at(9)) + 16 * n(k.at(10)) + 20 * n(k.at(11));
    for (const json& s : j.at("sections"))
        total += double(sizeof(SectionSample)) * n(s.at("samples"));
    return total;
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
    // Invalid UTF-8 (a name cut by a writer) is kept byte for byte rather than refused.
    return j.dump(-1, ' ', false, json::error_handler_t::ignore);
}

std::string TraceSnapshot::applyHeader(const std::string& text, size_t fileBytes, Trace& t,
                                       SnapshotSource* source, size_t* stringCount,
                                       size_t* stringBytes) {
    const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return "the Model record's JSON does not parse";
    try {
        // What the arrays claim, at most what the file holds, before anything is allocated.
        if (claimedBytes(j) > double(fileBytes))
            return "the Model record's sizes add up to more than the file's " +
                   std::to_string(fileBytes) + " bytes";
        *source = readSource(j.at("source"));
        *stringCount = j.at("strings").at("count").get<size_t>();
        *stringBytes = j.at("strings").at("bytes").get<size_t>();
        const json& sizes = j.at("sizes");
        t.extras_.resize_for_overwrite(sizes.at("extras").get<size_t>());
        t.gpu_.resize_for_overwrite(sizes.at("gpu").get<size_t>());
        t.externalIds_.resize_for_overwrite(sizes.at("external_ids").get<size_t>());
        t.args_.bytes_.resize_for_overwrite(sizes.at("arg_bytes").get<size_t>());
        t.args_.offsets_.resize_for_overwrite(sizes.at("arg_offsets").get<size_t>());
        const size_t flows = sizes.at("flows").get<size_t>();
        t.flows_.resize(flows);
        t.flowsByFrom_.resize(flows);
        t.flowsByTo_.resize(flows);
        sizeIndex(j.at("correlation_index"), t.correlationIndex_);
        sizeIndex(j.at("external_index"), t.externalIndex_);
        t.bounds_ = {j.at("bounds").at(0).get<TimeNs>(), j.at("bounds").at(1).get<TimeNs>()};
        t.sliceCount_ = j.at("counts").at(0).get<size_t>();
        t.counterSampleCount_ = j.at("counts").at(1).get<size_t>();
        t.instantCount_ = j.at("counts").at(2).get<size_t>();
        for (const json& k : j.at("tracks")) {
            Track& tr = t.tracks_.emplace_back();
            tr.kind = TrackKind(k.at(0).get<uint8_t>());
            if (tr.kind > TrackKind::GlobalInstants) return "a track of an unknown kind";
            tr.pid = k.at(1).get<int64_t>();
            tr.tid = k.at(2).get<int64_t>();
            tr.device = k.at(3).get<int32_t>();
            tr.lane = k.at(4).get<uint32_t>();
            tr.name = k.at(5).get<StringId>();
            tr.cookie = k.at(6).get<uint64_t>();
            tr.maxDepth = k.at(7).get<uint16_t>();
            tr.maxDuration = k.at(8).get<TimeNs>();
            const size_t n = k.at(9).get<size_t>(), c = k.at(10).get<size_t>(),
                         in = k.at(11).get<size_t>();
            SliceColumns& s = tr.slices;
            s.start.resize(n), s.dur.resize(n), s.name.resize(n), s.category.resize(n);
            s.parent.resize(n), s.args.resize(n), s.extra.resize(n), s.depth.resize(n);
            s.kind.resize(n), s.flags.resize(n);
            tr.counter.ts.resize(c), tr.counter.value.resize(c);
            tr.instants.ts.resize(in), tr.instants.name.resize(in);
            tr.instants.category.resize(in), tr.instants.args.resize(in);
        }
        for (const json& p : j.at("processes"))
            t.processes_.push_back({p.at(0).get<int64_t>(), p.at(1).get<StringId>(),
                                    p.at(2).get<int32_t>(), p.at(3).get<bool>(),
                                    p.at(4).get<std::vector<StringId>>(), readOptional(p.at(5))});
        for (const json& h : j.at("threads"))
            t.threads_.push_back({h.at(0).get<int64_t>(), h.at(1).get<int64_t>(),
                                  h.at(2).get<StringId>(), h.at(3).get<int32_t>(),
                                  h.at(4).get<bool>(), readOptional(h.at(5))});
        for (const json& d : j.at("devices"))
            t.devices_.push_back({d.at(0).get<int32_t>(), d.at(1).get<std::string>(),
                                  d.at(2).get<int32_t>(), d.at(3).get<int64_t>(),
                                  d.at(4).get<int32_t>(), d.at(5).get<int32_t>(),
                                  d.at(6).get<int64_t>(), d.at(7).get<int64_t>()});
        t.metadata_ = j.at("metadata").get<std::map<std::string, std::string>>();
        t.warnings_ = j.at("warnings").get<std::vector<std::string>>();
        if (j.contains("run")) {
            const json& r = j.at("run");
            RunInfo run;
            const std::string bad = runInfoFromJson(r.at("json").get<std::string>(), &run);
            if (!bad.empty()) return "the run: " + bad;
            run.pid = r.at("pid").get<int64_t>();
            if (!r.at("exit_code").is_null()) run.exitCode = r.at("exit_code").get<int>();
            if (!r.at("signal").is_null()) run.signal = r.at("signal").get<int>();
            run.startUnixNs = r.at("start_unix_ns").get<int64_t>();
            run.durationNs = r.at("duration_ns").get<int64_t>();
            t.run_ = std::move(run);
        }
        for (const json& c : j.at("name_colors"))
            t.nameColors_[c.at(0).get<StringId>()] = c.at(1).get<uint32_t>();
        for (const json& s : j.at("sections")) {
            SectionSet& set = t.sections_.emplace_back();
            set.kernel = s.at("kernel").get<std::string>();
            set.correlation = s.at("correlation").get<int64_t>();
            set.device = s.at("device").get<int32_t>();
            set.clockHz = s.at("clock_hz").get<double>();
            set.hasTimes = s.at("has_times").get<bool>();
            set.perWarp = s.at("per_warp").get<bool>();
            set.lost = s.at("lost").get<uint64_t>();
            set.source = s.at("source").get<std::string>();
            set.names = s.at("names").get<std::vector<std::string>>();
            set.samples.resize(s.at("samples").get<size_t>());
        }
    } catch (const json::exception& e) {
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
