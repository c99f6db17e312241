#include "analysis/json/gap_causes_json.h"

#include "analysis/gaps/gap_text.h"
#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

namespace {

nlohmann::json nameOrNull(const Trace& t, StringId id) {
    return id == kNoName ? nlohmann::json() : nlohmann::json(std::string(t.str(id)));
}

// Where the gap's time went (gap_breakdown.h): the totals per kind and the parts, each summing to
// the gap's length; null when the trace has no launch call for its op.
nlohmann::json breakdownJson(const Trace& t, const GapBreakdown& b) {
    if (!b.known) return nlohmann::json();
    nlohmann::json j;
    for (int k = 0; k < kGapPartKindCount; ++k)
        j[std::string(gapPartKindName(GapPartKind(k))) + "_us"] = us(double(b.byKind[size_t(k)]));
    nlohmann::json parts = nlohmann::json::array();
    for (const GapPart& p : b.parts) {
        nlohmann::json part = {{"kind", gapPartKindName(p.kind)},
                               {"name", nameOrNull(t, p.name)},
                               {"in", nameOrNull(t, p.context)},
                               {"us", us(double(p.time))}};
        if (p.kind == GapPartKind::Other) part["gathered"] = p.gathered;
        if (p.warmUp) part["first_launch"] = true;
        parts.push_back(part);
    }
    j["parts"] = parts;
    j["input_pipeline_us"] = us(double(b.inputPipeline));
    j["input_span"] = nameOrNull(t, b.inputSpan);
    j["warm_up_us"] = us(double(b.warmUp));
    return j;
}

// The threads of the launching process blocked while the gap lasted (other_threads.h).
nlohmann::json threadWaitsJson(const Trace& t, const ExplainedGap& e) {
    nlohmann::json list = nlohmann::json::array();
    for (const ThreadWait& w : e.otherThreads) {
        const Thread* th = t.thread(w.pid, w.tid);
        list.push_back(
            {{"pid", th ? nlohmann::json(t.process(w.pid) ? t.process(w.pid)->shownPid() : w.pid)
                        : nlohmann::json(w.pid)},
             {"tid", th ? th->shownTid() : w.tid},
             {"thread", th && th->name != 0 ? nameOrNull(t, th->name) : nlohmann::json()},
             {"launching_thread", w.launching},
             {"call",
              w.call.valid() ? nlohmann::json(std::string(t.name(w.call))) : nlohmann::json()},
             {"overlap_us", us(double(w.overlap))},
             {"whole_gap", w.overlap >= e.gap.duration()}});
    }
    return list;
}

nlohmann::json gapJson(const Trace& t, const ExplainedGap& e, TimeNs origin) {
    nlohmann::json g;
    g["device"] = e.gap.device;
    g["stream"] = e.gap.stream < 0 ? nlohmann::json() : nlohmann::json(e.gap.stream);
    g["start_us"] = us(double(e.gap.start - origin));
    g["dur_us"] = us(double(e.gap.duration()));
    g["cause"] = gapCauseName(e.cause);
    g["cause_label"] = gapCauseLabel(e.cause);
    g["reason"] = gapReason(t, e);
    g["late_us"] = e.launchedLate ? nlohmann::json(us(double(e.late))) : nlohmann::json();
    g["breakdown"] = breakdownJson(t, e.breakdown);
    g["cpu_covered_share"] = e.breakdown.known ? nlohmann::json(e.tracedShare()) : nlohmann::json();
    const GapPart* dominant =
        e.cause == GapCause::LaunchBound ? e.breakdown.dominantCpu() : nullptr;
    g["dominant"] = dominant ? nlohmann::json({{"kind", gapPartKindName(dominant->kind)},
                                               {"name", nameOrNull(t, dominant->name)},
                                               {"in", nameOrNull(t, dominant->context)},
                                               {"us", us(double(dominant->time))}})
                             : nlohmann::json();
    g["input_pipeline"] = e.inputPipeline;
    g["blocking_call"] = e.blockingCall.valid()
                             ? nlohmann::json(std::string(t.name(e.blockingCall)))
                             : nlohmann::json();
    nlohmann::json waited;
    if (e.waitedOn.valid()) {
        const GpuActivity* a = t.gpu(e.waitedOn);
        waited = {{"name", std::string(t.name(e.waitedOn))},
                  {"kind", std::string(sliceKindName(t.kind(e.waitedOn)))},
                  {"stream", a ? nlohmann::json(a->stream) : nlohmann::json()},
                  {"end_us", us(double(t.start(e.waitedOn) + t.duration(e.waitedOn) - origin))}};
    }
    g["waited_on"] = waited;
    g["wait_call"] =
        e.waitCall.valid() ? nlohmann::json(std::string(t.name(e.waitCall))) : nlohmann::json();
    g["no_recorded_cause"] = e.causeNotVisible();
    g["graph_capture_us"] = us(double(e.inCapture));
    g["other_threads"] = threadWaitsJson(t, e);
    return g;
}

nlohmann::json clockJson(const ClockCheck& c) {
    return {{"kernels_launched", c.kernelsLaunched},
            {"start_before_launch", c.startBeforeLaunch},
            {"most_before_us", us(double(c.mostBefore))},
            {"idle_launches", c.idleLaunches},
            {"least_idle_delay_us", us(double(c.leastIdleDelay))},
            {"most_idle_delay_us", us(double(c.mostIdleDelay))},
            {"offset", c.offset()},
            {"suggested_gpu_shift_us", us(double(c.suggestedShift))}};
}

} // namespace

nlohmann::json gapCauseTotalsToJson(const std::array<CauseTotals, kGapCauseCount>& byCause,
                                    std::optional<TimeNs> span) {
    nlohmann::json by = nlohmann::json::object();
    for (size_t c = 0; c < byCause.size(); ++c) {
        nlohmann::json o = {{"count", byCause[c].count}, {"idle_us", us(double(byCause[c].idle))}};
        if (span) o["share_of_span"] = *span > 0 ? double(byCause[c].idle) / double(*span) : 0.0;
        by[gapCauseName(GapCause(c))] = o;
    }
    return by;
}

nlohmann::json gapCausesToJson(const Trace& t, const GapCauses& g) {
    const TimeNs origin = t.bounds().start;
    nlohmann::json j;
    j["warnings"] = g.warnings;
    j["clock"] = clockJson(g.clock);
    nlohmann::json list = nlohmann::json::array();
    for (const ExplainedGap& e : g.deviceGaps) list.push_back(gapJson(t, e, origin));
    for (const ExplainedGap& e : g.streamGaps) list.push_back(gapJson(t, e, origin));
    j["gaps"] = list;
    // Per cause: count, idle and its share of the devices' spans (first op to last end).
    TimeNs span = 0;
    for (const DeviceGapStats& d : g.devices) span += d.lastEnd - d.firstStart;
    j["by_cause"] = gapCauseTotalsToJson(g.byCause, span);
    nlohmann::json steps = nlohmann::json::array();
    for (const StepGaps& s : g.steps)
        steps.push_back(
            {{"name", s.step.name},
             {"device", s.device},
             {"start_us", us(double(s.step.start - origin))},
             {"dur_us", us(double(s.step.end - s.step.start))},
             {"idle_us", us(double(s.idle))},
             {"idle_share",
              s.step.end > s.step.start ? double(s.idle) / double(s.step.end - s.step.start) : 0.0},
             {"by_cause", gapCauseTotalsToJson(s.byCause, std::nullopt)}});
    j["steps"] = steps;
    nlohmann::json edges = nlohmann::json::array();
    for (const EdgeIdle& e : g.edges)
        edges.push_back({{"device", e.device},
                         {"before_first_op_us", us(double(e.before))},
                         {"after_last_op_us", us(double(e.after))}});
    j["edges"] = edges;
    return j;
}

} // namespace strata
