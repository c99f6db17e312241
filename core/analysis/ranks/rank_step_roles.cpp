#include "analysis/ranks/rank_step_roles.h"
// Sums over many ranks' steps are held at the int64 limit (model/time.h's addSaturating), as the
// other set totals are (analysis/ranks/rank_totals.cpp).

#include <set>

namespace strata {

void StepRoleSum::add(const StepRoleTimes& t) {
    ++steps;
    total = addSaturating(total, t.duration());
    for (size_t r = 0; r < role.size(); ++r) role[r] = addSaturating(role[r], t.role[r]);
    computation = addSaturating(computation, t.computation);
    communication = addSaturating(communication, t.communication);
    overlap = addSaturating(overlap, t.overlap);
    otherThanBoth = addSaturating(otherThanBoth, t.otherThanBoth);
}

StepRoleSum& StepRoleSum::operator+=(const StepRoleSum& o) {
    steps += o.steps;
    total = addSaturating(total, o.total);
    for (size_t r = 0; r < role.size(); ++r) role[r] = addSaturating(role[r], o.role[r]);
    computation = addSaturating(computation, o.computation);
    communication = addSaturating(communication, o.communication);
    overlap = addSaturating(overlap, o.overlap);
    otherThanBoth = addSaturating(otherThanBoth, o.otherThanBoth);
    return *this;
}

StepRoleSum sumStepRoles(const StepRoles& roles, const std::string& step) {
    StepRoleSum sum;
    for (const StepRoleTimes& t : roles.steps)
        if (step.empty() || t.name == step) sum.add(t);
    return sum;
}

std::vector<std::string> stepRoleNames(const std::vector<const StepRoles*>& ranks) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const StepRoles* r : ranks)
        if (r)
            for (const StepRoleTimes& t : r->steps)
                if (seen.insert(t.name).second) names.push_back(t.name);
    return names;
}

} // namespace strata
