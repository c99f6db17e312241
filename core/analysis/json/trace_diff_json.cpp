#include "analysis/json/trace_diff_json.h"

#include "analysis/json/json_units.h"

#include <map>

namespace strata {

using json_units::us;

namespace {

nlohmann::json sideJson(const DiffSide& s, bool bySteps, bool gpu) {
    nlohmann::json j{{"count", s.count},
                     {"total_us", us(double(s.total))},
                     {"mean_us", us(s.mean)},
                     {"median_us", us(double(s.median))},
                     {"p95_us", us(double(s.p95))}};
    if (bySteps) {
        j["step_mean_us"] = us(s.stepMean);
        j["step_spread_us"] = us(s.stepSpread);
    }
    if (gpu) {
        j["gpu_total_us"] = us(double(s.gpuTotal));
        if (bySteps) {
            j["gpu_step_mean_us"] = us(s.gpuStepMean);
            j["gpu_step_spread_us"] = us(s.gpuStepSpread);
        }
    }
    return j;
}

nlohmann::json rowJson(const DiffRow& r, const TraceDiff& d) {
    nlohmann::json row{{"name", r.name},
                       {"status", diffStatusName(r.status)},
                       {"baseline", sideJson(r.baseline, d.bySteps, r.launchesGpu)},
                       {"candidate", sideJson(r.candidate, d.bySteps, r.launchesGpu)},
                       {"delta_total_us", us(double(r.deltaTotal()))},
                       {"delta_share", r.deltaShare()}};
    if (!r.shown.empty() && r.shown != r.name) row["shown"] = r.shown;
    if (d.referenceSteps > 0) row["step_spread_us"] = us(r.referenceSpread);
    if (r.launchesGpu) { // a CPU op that launched GPU work: that work's time judged too
        row["gpu_status"] = diffStatusName(r.gpuStatus);
        row["delta_gpu_us"] = us(double(r.deltaGpu()));
        if (d.referenceSteps > 0) row["gpu_step_spread_us"] = us(r.referenceGpuSpread);
    }
    return row;
}

nlohmann::json causesJson(const std::array<TimeNs, kGapCauseCount>& idleByCause) {
    nlohmann::json causes;
    for (int c = 0; c < kGapCauseCount; ++c)
        causes[gapCauseName(GapCause(c))] = us(double(idleByCause[size_t(c)]));
    return causes;
}

nlohmann::json deviceSideJson(const DeviceDiffSide& s) {
    return {{"present", s.present},
            {"busy_us", us(double(s.busy))},
            {"idle_us", us(double(s.idle))},
            {"idle_by_cause_us", causesJson(s.idleByCause)}};
}

nlohmann::json stepSideJson(const StepDiffSide& x) {
    return nlohmann::json{{"present", x.present},
                          {"step", x.step},
                          {"length_us", us(double(x.length))},
                          {"idle_us", us(double(x.idle))},
                          {"idle_by_cause_us", causesJson(x.idleByCause)}};
}

// `v.dump(1)` as it reads `depth` levels down (every line after the first indented by `depth`
// more spaces).
void writeIndented(const nlohmann::json& v, int depth,
                   const std::function<void(std::string_view)>& write) {
    const std::string text = v.dump(1);
    std::string out;
    out.reserve(text.size() + 64);
    for (char c : text) {
        out += c;
        if (c == '\n') out.append(size_t(depth), ' ');
    }
    write(out);
}

// A table's rows and the noise rule they were judged by.
struct RowArray {
    const std::vector<DiffRow>* rows;
    const TraceDiff* rule;
};

} // namespace

std::string diffNoiseRule(const TraceDiff& d) {
    if (d.bySteps)
        return "per step (" + std::to_string(d.baselineSteps) + " and " +
               std::to_string(d.candidateSteps) +
               " steps): changed when the difference of the mean total per step exceeds twice "
               "its standard error and 1 % of the baseline's";
    if (d.referenceSteps > 0)
        return "steps of one run, against the spread of its " + std::to_string(d.referenceSteps) +
               " other steps: changed when the difference of the totals exceeds Student's t (95 "
               "%, " +
               std::to_string(d.referenceSteps - 1) +
               " degrees of freedom) times its standard deviation (the per-step standard "
               "deviation x sqrt(" +
               std::to_string(d.baselineSteps) + " + " + std::to_string(d.candidateSteps) +
               ")) and 1 % of the baseline's";
    return "no steps on both sides (at least 3 each): changed when the count differs, or the "
           "total by at least 5 % and 1 µs";
}

nlohmann::json traceDiffHeadToJson(const TraceDiff& d) {
    nlohmann::json j;
    j["noise"] = {{"by_steps", d.bySteps},
                  {"baseline_steps", d.baselineSteps},
                  {"candidate_steps", d.candidateSteps},
                  {"reference_steps", d.referenceSteps},
                  {"rule", diffNoiseRule(d)}};
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceDiff& dev : d.devices)
        devices.push_back({{"device", dev.device},
                           {"baseline", deviceSideJson(dev.baseline)},
                           {"candidate", deviceSideJson(dev.candidate)}});
    j["devices"] = devices;
    nlohmann::json steps = nlohmann::json::array();
    for (const StepDiff& st : d.steps)
        steps.push_back({{"index", st.index},
                         {"device", st.device},
                         {"baseline", stepSideJson(st.baseline)},
                         {"candidate", stepSideJson(st.candidate)}});
    j["steps"] = steps;
    j["sections_unit"] = d.sectionsInNs ? "us" : "kilocycles";
    return j;
}

void writeTraceDiffJson(const TraceDiff& d, const nlohmann::json& head,
                        const std::function<void(std::string_view)>& write) {
    const TraceDiff plain; // sections: the rule without steps
    const std::map<std::string, RowArray> arrays = {{"kernels", {&d.kernels, &d}},
                                                    {"ops", {&d.ops, &d}},
                                                    {"copies", {&d.copies, &d}},
                                                    {"sections", {&d.sections, &plain}}};
    std::map<std::string, const nlohmann::json*> values;
    for (auto it = head.begin(); it != head.end(); ++it) values[it.key()] = &it.value();
    for (const auto& [key, a] : arrays) values[key] = nullptr;
    std::string_view sep = "{\n";
    for (const auto& [key, value] : values) {
        write(sep);
        write(" " + nlohmann::json(key).dump() + ": ");
        sep = ",\n";
        if (value) {
            writeIndented(*value, 1, write);
            continue;
        }
        const RowArray& a = arrays.at(key);
        if (a.rows->empty()) {
            write("[]");
            continue;
        }
        std::string_view rowSep = "[\n  ";
        for (const DiffRow& r : *a.rows) {
            write(rowSep);
            rowSep = ",\n  ";
            writeIndented(rowJson(r, *a.rule), 2, write);
        }
        write("\n ]");
    }
    write("\n}\n");
}

} // namespace strata
