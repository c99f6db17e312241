#include "analysis/json/step_roles_json.h"

#include "analysis/json/json_units.h"

namespace strata {

namespace {

using json_units::us;

// One step's figures (or their mean over `n` steps when summed).
nlohmann::json figures(const StepRoleTimes& t, double n) {
    nlohmann::json j;
    j["total_us"] = us(double(t.duration()) / n);
    for (int r = 0; r < kStepRoleCount; ++r)
        j[std::string(stepRoleName(StepRole(r))) + "_us"] = us(double(t.role[size_t(r)]) / n);
    j["overlap"] = {{"computation_us", us(double(t.computation) / n)},
                    {"communication_us", us(double(t.communication) / n)},
                    {"overlap_us", us(double(t.overlap) / n)},
                    {"other_us", us(double(t.otherThanBoth) / n)}};
    return j;
}

} // namespace

nlohmann::json stepRolesToJson(const Trace& trace, const StepRoles& roles) {
    const TimeNs origin = trace.bounds().start;
    nlohmann::json steps = nlohmann::json::array();
    StepRoleTimes sum;
    for (const StepRoleTimes& t : roles.steps) {
        nlohmann::json j = figures(t, 1);
        j["step"] = t.name;
        j["start_us"] = us(double(t.start - origin));
        j["end_us"] = us(double(t.end - origin));
        steps.push_back(std::move(j));
        sum.end += t.duration();
        for (int r = 0; r < kStepRoleCount; ++r) sum.role[size_t(r)] += t.role[size_t(r)];
        sum.computation += t.computation;
        sum.communication += t.communication;
        sum.overlap += t.overlap;
        sum.otherThanBoth += t.otherThanBoth;
    }
    return {
        {"steps", std::move(steps)},
        {"average",
         roles.steps.empty() ? nlohmann::json() : figures(sum, double(roles.steps.size()))},
        {"tail_steps_left_out", roles.tailStepsLeftOut},
        {"rule", "the TensorBoard profiler plugin's Overview: each instant of a step counted "
                 "once, for the first role active then, in the order kernel, memcpy, memset, "
                 "communication, runtime, data_loading, cpu_op; other is the rest; steps "
                 "stretched to the end of the GPU work their runtime calls launched"},
    };
}

} // namespace strata
