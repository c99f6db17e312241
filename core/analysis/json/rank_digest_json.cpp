#include "analysis/json/rank_digest_json.h"

#include <stdexcept>

namespace strata {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

ordered_json causesJson(const DigestDeviceStep& d) {
    ordered_json o = ordered_json::object();
    for (int c = 0; c < kGapCauseCount; ++c)
        o[gapCauseName(GapCause(c))] = {{"count", d.gapsByCause[size_t(c)]},
                                        {"idle_ns", d.idleByCause[size_t(c)]}};
    return o;
}

// Reading: each accessor names the path of what it reads, and throws BadField when it is not
// what a digest holds there.
struct BadField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const json& field(const json& o, const std::string& path, const char* key) {
    if (!o.is_object()) throw BadField(path + ": expected an object");
    const auto it = o.find(key);
    if (it == o.end()) throw BadField(path + (path.empty() ? "" : ".") + key + ": missing");
    return *it;
}

std::string at(const std::string& path, const char* key) {
    return path.empty() ? std::string(key) : path + "." + key;
}

int64_t integer(const json& o, const std::string& path, const char* key) {
    const json& v = field(o, path, key);
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
            throw BadField(at(path, key) + ": out of range");
        return v.get<int64_t>();
    }
    throw BadField(at(path, key) + ": expected an integer");
}

uint64_t count(const json& o, const std::string& path, const char* key) {
    const int64_t v = integer(o, path, key);
    if (v < 0) throw BadField(at(path, key) + ": expected a count (>= 0)");
    return uint64_t(v);
}

// A time of the trace's clock: within +-kMaxTimeNs, as every time a trace holds.
TimeNs time(const json& o, const std::string& path, const char* key) {
    const int64_t v = integer(o, path, key);
    if (!timeInRange(v))
        throw BadField(at(path, key) + ": " + std::to_string(v) +
                       " is out of range (a time within +-2^62 ns)");
    return v;
}

// A length of time, or a sum of lengths (which may overlap, so exceed any span): >= 0. What
// adds them up saturates (model/time.h's addSaturating).
TimeNs duration(const json& o, const std::string& path, const char* key) {
    const int64_t v = integer(o, path, key);
    if (v < 0) throw BadField(at(path, key) + ": expected a duration (>= 0)");
    return v;
}

int32_t device(const json& o, const std::string& path, const char* key) {
    const int64_t v = integer(o, path, key);
    if (v < INT32_MIN || v > INT32_MAX)
        throw BadField(at(path, key) + ": " + std::to_string(v) +
                       " is out of range (a device number fits in 32 bits)");
    return int32_t(v);
}

// [start, end] of an item of the digest: end not before start, both within the trace's bounds.
void span(TimeNs start, TimeNs end, const std::string& p, const TimeRange& bounds) {
    if (end < start) throw BadField(p + ": end_ns before start_ns");
    if (start < bounds.start || end > bounds.end)
        throw BadField(p + ": [" + std::to_string(start) + ", " + std::to_string(end) +
                       "] ns lies outside the trace's bounds (clock.start_ns, clock.end_ns)");
}

std::string text(const json& o, const std::string& path, const char* key) {
    const json& v = field(o, path, key);
    if (!v.is_string()) throw BadField(at(path, key) + ": expected a string");
    return v.get<std::string>();
}

bool boolean(const json& o, const std::string& path, const char* key) {
    const json& v = field(o, path, key);
    if (!v.is_boolean()) throw BadField(at(path, key) + ": expected true or false");
    return v.get<bool>();
}

const json& array(const json& o, const std::string& path, const char* key) {
    const json& v = field(o, path, key);
    if (!v.is_array()) throw BadField(at(path, key) + ": expected an array");
    return v;
}

std::string item(const std::string& path, const char* key, size_t i) {
    return at(path, key) + "[" + std::to_string(i) + "]";
}

CollectiveKernel readCollective(const json& c, const std::string& p, const TimeRange& bounds) {
    CollectiveKernel k;
    k.name = text(c, p, "name");
    k.op = text(c, p, "op");
    k.group = text(c, p, "group");
    k.device = device(c, p, "device");
    k.stream = integer(c, p, "stream"); // identifiers: any integer
    k.seq = integer(c, p, "seq");
    k.start = time(c, p, "start_ns");
    k.end = time(c, p, "end_ns");
    span(k.start, k.end, p, bounds);
    // Written since issue 44; a digest written before has neither (none known).
    if (c.contains("collective")) k.collective = text(c, p, "collective");
    if (c.contains("peer")) k.peer = integer(c, p, "peer");
    return k;
}

DigestDeviceStep readDeviceStep(const json& d, const std::string& p) {
    DigestDeviceStep s;
    s.device = device(d, p, "device");
    s.busy = duration(d, p, "busy_ns");
    s.idle = duration(d, p, "idle_ns");
    s.kernels = count(d, p, "kernels");
    const json& by = field(d, p, "gaps_by_cause");
    const std::string bp = at(p, "gaps_by_cause");
    for (int c = 0; c < kGapCauseCount; ++c) {
        const char* name = gapCauseName(GapCause(c));
        const json& one = field(by, bp, name);
        s.gapsByCause[size_t(c)] = count(one, at(bp, name), "count");
        s.idleByCause[size_t(c)] = duration(one, at(bp, name), "idle_ns");
    }
    return s;
}

RankIdentity readIdentity(const json& j) {
    RankIdentity id;
    id.rank = integer(j, "", "rank");
    const auto source = rankSourceFromName(text(j, "", "rank_source"));
    if (!source)
        throw BadField("rank_source: expected distributedInfo, recording, file name or index");
    id.source = *source;
    id.host = text(j, "", "host");
    id.worldSize = integer(j, "", "world_size");
    if (id.worldSize < -1) throw BadField("world_size: expected a count (>= 0) or -1 (unknown)");
    return id;
}

void readClock(const json& j, RankDigest& d) {
    const json& clock = field(j, "", "clock");
    const json& base = field(clock, "clock", "base_time_ns");
    if (!base.is_null()) d.clock.baseTimeNs = time(clock, "clock", "base_time_ns");
    d.clock.wallClock = boolean(clock, "clock", "wall_clock");
    d.bounds = {time(clock, "clock", "start_ns"), time(clock, "clock", "end_ns")};
    if (d.bounds.end < d.bounds.start) throw BadField("clock: end_ns before start_ns");
}

DigestStep readStep(const json& s, const std::string& p, const TimeRange& bounds) {
    DigestStep step{text(s, p, "name"), time(s, p, "start_ns"), time(s, p, "end_ns"), {}};
    span(step.start, step.end, p, bounds);
    const json& ds = array(s, p, "devices");
    for (size_t k = 0; k < ds.size(); ++k)
        step.devices.push_back(readDeviceStep(ds[k], item(p, "devices", k)));
    return step;
}

// A step's roles (analysis/ops/step_roles.h): its span within the trace's bounds, each role a
// duration, the roles summing to the step's length.
StepRoleTimes readStepRoles(const json& s, const std::string& p, const TimeRange& bounds) {
    StepRoleTimes t;
    t.name = text(s, p, "name");
    t.start = time(s, p, "start_ns");
    t.end = time(s, p, "end_ns");
    span(t.start, t.end, p, bounds);
    const json& roles = field(s, p, "roles_ns");
    const std::string rp = at(p, "roles_ns");
    TimeNs sum = 0;
    for (int r = 0; r < kStepRoleCount; ++r) {
        t.role[size_t(r)] = duration(roles, rp, stepRoleName(StepRole(r)));
        sum = addSaturating(sum, t.role[size_t(r)]);
    }
    if (sum != t.duration())
        throw BadField(rp + ": the roles sum to " + std::to_string(sum) +
                       " ns, not the step's length " + std::to_string(t.duration()) + " ns");
    t.computation = duration(s, p, "computation_ns");
    t.communication = duration(s, p, "communication_ns");
    t.overlap = duration(s, p, "overlap_ns");
    t.otherThanBoth = duration(s, p, "other_than_both_ns");
    return t;
}

// Written since issue 46; a digest written before has none (no step roles known).
StepRoles readRoles(const json& j, const TimeRange& bounds) {
    StepRoles roles;
    if (!j.contains("step_roles")) return roles;
    const json& o = field(j, "", "step_roles");
    roles.tailStepsLeftOut = count(o, "step_roles", "tail_steps_left_out");
    const json& ss = array(o, "step_roles", "steps");
    for (size_t i = 0; i < ss.size(); ++i)
        roles.steps.push_back(readStepRoles(ss[i], item("step_roles", "steps", i), bounds));
    return roles;
}

ordered_json rolesJson(const StepRoles& roles) {
    ordered_json ss = ordered_json::array();
    for (const StepRoleTimes& t : roles.steps) {
        ordered_json r = ordered_json::object();
        for (int k = 0; k < kStepRoleCount; ++k) r[stepRoleName(StepRole(k))] = t.role[size_t(k)];
        ss.push_back({{"name", t.name},
                      {"start_ns", t.start},
                      {"end_ns", t.end},
                      {"roles_ns", r},
                      {"computation_ns", t.computation},
                      {"communication_ns", t.communication},
                      {"overlap_ns", t.overlap},
                      {"other_than_both_ns", t.otherThanBoth}});
    }
    return {{"tail_steps_left_out", roles.tailStepsLeftOut}, {"steps", ss}};
}

RankDigest readDigest(const json& j) {
    RankDigest d;
    d.file = text(j, "", "file");
    d.identity = readIdentity(j);
    readClock(j, d);
    d.gapThreshold = duration(j, "", "gap_threshold_ns");
    d.stepPrefix = text(j, "", "step_prefix");
    d.kernels = count(j, "", "kernels");
    d.kernelTime = duration(j, "", "kernel_time_ns");
    d.busy = duration(j, "", "busy_ns");
    d.idle = duration(j, "", "idle_ns");
    const json& cs = array(j, "", "collectives");
    for (size_t i = 0; i < cs.size(); ++i)
        d.collectives.push_back(readCollective(cs[i], item("", "collectives", i), d.bounds));
    const json& ss = array(j, "", "steps");
    for (size_t i = 0; i < ss.size(); ++i)
        d.steps.push_back(readStep(ss[i], item("", "steps", i), d.bounds));
    d.stepRoles = readRoles(j, d.bounds);
    const json& ws = array(j, "", "warnings");
    for (size_t i = 0; i < ws.size(); ++i) {
        if (!ws[i].is_string()) throw BadField(item("", "warnings", i) + ": expected a string");
        d.warnings.push_back(ws[i].get<std::string>());
    }
    return d;
}

} // namespace

ordered_json rankDigestToJson(const RankDigest& d) {
    ordered_json j; // the version first: io/digest_reader.h tells a digest by its first bytes
    j["strata_rank_digest"] = RankDigest::kVersion;
    j["file"] = d.file;
    j["rank"] = d.identity.rank;
    j["rank_source"] = rankSourceName(d.identity.source);
    j["host"] = d.identity.host;
    j["world_size"] = d.identity.worldSize;
    j["clock"] = {
        {"base_time_ns", d.clock.baseTimeNs ? ordered_json(*d.clock.baseTimeNs) : ordered_json()},
        {"wall_clock", d.clock.wallClock},
        {"start_ns", d.bounds.start},
        {"end_ns", d.bounds.end}};
    j["gap_threshold_ns"] = d.gapThreshold;
    j["step_prefix"] = d.stepPrefix;
    j["kernels"] = d.kernels;
    j["kernel_time_ns"] = d.kernelTime;
    j["busy_ns"] = d.busy;
    j["idle_ns"] = d.idle;
    ordered_json cs = ordered_json::array();
    for (const CollectiveKernel& c : d.collectives)
        cs.push_back({{"name", c.name},
                      {"op", c.op},
                      {"group", c.group},
                      {"device", c.device},
                      {"stream", c.stream},
                      {"seq", c.seq},
                      {"start_ns", c.start},
                      {"end_ns", c.end},
                      {"collective", c.collective},
                      {"peer", c.peer}});
    j["collectives"] = cs;
    ordered_json ss = ordered_json::array();
    for (const DigestStep& s : d.steps) {
        ordered_json ds = ordered_json::array();
        for (const DigestDeviceStep& dev : s.devices)
            ds.push_back({{"device", dev.device},
                          {"busy_ns", dev.busy},
                          {"idle_ns", dev.idle},
                          {"kernels", dev.kernels},
                          {"gaps_by_cause", causesJson(dev)}});
        ss.push_back({{"name", s.name}, {"start_ns", s.start}, {"end_ns", s.end}, {"devices", ds}});
    }
    j["steps"] = ss;
    j["step_roles"] = rolesJson(d.stepRoles);
    j["warnings"] = d.warnings;
    return j;
}

std::string rankDigestToText(const RankDigest& d) {
    return rankDigestToJson(d).dump(1, ' ', false, ordered_json::error_handler_t::replace);
}

std::optional<RankDigest> rankDigestFromJson(const json& j, std::string* error) {
    try {
        if (!j.is_object() || !j.contains("strata_rank_digest"))
            throw BadField("not a Strata rank digest (no strata_rank_digest key)");
        const int64_t version = integer(j, "", "strata_rank_digest");
        if (version > RankDigest::kVersion)
            throw BadField("strata_rank_digest: version " + std::to_string(version) +
                           " is newer than this build reads (" +
                           std::to_string(RankDigest::kVersion) + ")");
        if (version < 1)
            throw BadField("strata_rank_digest: version " + std::to_string(version) +
                           " was never written (versions start at 1)");
        return readDigest(j);
    } catch (const BadField& e) {
        if (error) *error = e.what();
        return std::nullopt;
    }
}

std::optional<RankDigest> rankDigestFromText(std::string_view text, std::string* error) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        if (error) *error = "not JSON (byte " + std::to_string(e.byte) + "): " + e.what();
        return std::nullopt;
    }
    return rankDigestFromJson(j, error);
}

ordered_json digestOutcomeToJson(const DigestOutcome& outcome, const std::string& file) {
    if (outcome.digest) return rankDigestToJson(*outcome.digest);
    return ordered_json{{"strata_rank_digest", RankDigest::kVersion},
                        {"file", outcome.file.empty() ? file : outcome.file},
                        {"error", outcome.error}};
}

DigestOutcome digestOutcomeFromJson(const json& j, const std::string& source) {
    DigestOutcome o;
    if (j.is_object() && j.contains("error") && j["error"].is_string()) {
        o.error = j["error"].get<std::string>();
        if (j.contains("file") && j["file"].is_string()) o.file = j["file"].get<std::string>();
        return o;
    }
    std::string error;
    o.digest = rankDigestFromJson(j, &error);
    if (!o.digest) o.error = source + ": not a digest this build reads: " + error;
    return o;
}

} // namespace strata
