#include "analysis/json/critical_path_json.h"

#include "analysis/json/json_units.h"

namespace strata {

namespace {

using json_units::us;

nlohmann::json pointJson(const Trace& trace, const CpPoint& p, TimeNs origin) {
    const Track& track = trace.track(p.event.track);
    return {{"name", trace.name(p.event)},
            {"time_us", us(double(p.time - origin))},
            {"point", p.isStart ? "start" : "end"},
            {"pid", track.pid},
            {"tid", track.tid}};
}

const char* const kRule =
    "HTA's lightweight critical path (critical_path_analysis.py): a start and an end node per CPU "
    "op, runtime/driver call and linked GPU op of the window; edges for each event's span, each "
    "thread's call stack, the CUDA runtime lock, launch delays (queue empty at the launch), "
    "kernel-kernel delays (< 1.5 ms), syncs (stream, device, event, stream wait) and 0-weight "
    "launch edges; the longest path, negative weights as 0 (docs/analysis.md, \"Critical path\")";

} // namespace

nlohmann::json criticalPathToJson(const Trace& trace, const CriticalPath& cp) {
    const TimeNs origin = trace.bounds().start;
    nlohmann::json byType = nlohmann::json::object();
    for (size_t t = 0; t < cp.edgesByType.size(); ++t)
        byType[cpEdgeTypeName(CpEdgeType(t))] = cp.edgesByType[t];
    nlohmann::json byBound = nlohmann::json::object(), summary = nlohmann::json::object();
    std::vector<bool> present(kCpBoundCount, false);
    for (const CpPathEdge& e : cp.edges) present[size_t(e.bound)] = true;
    for (size_t b = 0; b < kCpBoundCount; ++b) {
        if (!present[b]) continue;
        const char* name = cpBoundName(CpBound(b));
        byBound[name] = us(double(cp.byBound[b]));
        summary[name] =
            cp.boundTotal != 0 ? 100.0 * double(cp.byBound[b]) / double(cp.boundTotal) : 0.0;
    }
    nlohmann::json path = nlohmann::json::array();
    for (const CpPathEdge& e : cp.edges)
        path.push_back(
            {{"from", pointJson(trace, cp.points[e.from], origin)},
             {"to", pointJson(trace, cp.points[e.to], origin)},
             {"type", cpEdgeTypeName(e.type)},
             {"delay_us", us(double(e.weight))},
             {"bound", cpBoundName(e.bound)},
             {"attributed",
              e.attributed.valid() ? nlohmann::json(trace.name(e.attributed)) : nlohmann::json()}});
    return {
        {"ok", cp.ok},
        {"error", cp.error},
        {"window",
         {{"start_us", us(double(cp.window.start - origin))},
          {"end_us", us(double(cp.window.end - origin))}}},
        {"events", cp.events},
        {"graph", {{"nodes", cp.graphNodes}, {"edges", cp.graphEdges}, {"edges_by_type", byType}}},
        {"length_us", us(double(cp.length))},
        {"by_bound_us", byBound},
        {"summary_percent", summary},
        {"path", path},
        {"rule", kRule}};
}

} // namespace strata
