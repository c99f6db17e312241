#include "analysis/json/rank_step_roles_json.h"

#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

nlohmann::json stepRoleSumToJson(const StepRoleSum& s) {
    nlohmann::json j;
    j["steps_summed"] = s.steps;
    j["total_us"] = us(double(s.total));
    for (int r = 0; r < kStepRoleCount; ++r)
        j[std::string(stepRoleName(StepRole(r))) + "_us"] = us(double(s.role[size_t(r)]));
    j["overlap"] = {{"computation_us", us(double(s.computation))},
                    {"communication_us", us(double(s.communication))},
                    {"overlap_us", us(double(s.overlap))},
                    {"other_us", us(double(s.otherThanBoth))}};
    return j;
}

nlohmann::json stepRolesOfRanksToJson(const std::vector<RolesRankRow>& rows,
                                      const std::string& step) {
    std::vector<RankIdentity> ids;
    for (const RolesRankRow& r : rows) ids.push_back(r.id);
    nlohmann::json ranks = nlohmann::json::array();
    StepRoleSum whole;
    for (size_t i : rankOrder(ids)) {
        const RolesRankRow& r = rows[i];
        const StepRoleSum sum = sumStepRoles(r.roles, step);
        whole += sum;
        nlohmann::json roles = stepRoleSumToJson(sum);
        nlohmann::json steps = nlohmann::json::array();
        for (const StepRoleTimes& t : r.roles.steps) {
            StepRoleSum one;
            one.add(t);
            nlohmann::json s = stepRoleSumToJson(one);
            s.erase("steps_summed");
            s["step"] = t.name;
            steps.push_back(std::move(s));
        }
        roles["steps"] = std::move(steps);
        roles["tail_steps_left_out"] = r.roles.tailStepsLeftOut;
        ranks.push_back({{"rank", r.id.rank},
                         {"file", r.file},
                         {"host", r.id.host},
                         {"step_roles", std::move(roles)}});
    }
    return {{"ranks", std::move(ranks)},
            {"whole", {{"step_roles", stepRoleSumToJson(whole)}}},
            {"rank_step", step.empty() ? nlohmann::json() : nlohmann::json(step)}};
}

} // namespace strata
