#pragma once
// How a step role (core/analysis/ops/step_roles.h) looks and reads in every view (the Statistics
// dock's Steps tab, the Ranks dock's Step roles tab): the TensorBoard plugin's colours for its
// roles, in its order, and their names as users read them.
#include "analysis/ops/step_roles.h"

#include <QColor>
#include <QString>

namespace strata {

inline QColor stepRoleColor(StepRole r) {
    static const QColor colors[kStepRoleCount] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0x59, 0xa1, 0x4f), QColor(0x76, 0xb7, 0xb2),
        QColor(0xf2, 0x8e, 0x2b), QColor(0xed, 0xc9, 0x48), QColor(0xb0, 0x7a, 0xa1),
        QColor(0xff, 0x9d, 0xa7), QColor(0xba, 0xb0, 0xac)};
    return colors[int(r) < kStepRoleCount ? int(r) : kStepRoleCount - 1];
}

// "kernel", "memcpy", "memset", "communication", "runtime", "data loading", "CPU op", "other".
inline QString stepRoleText(StepRole r) {
    static const char* const labels[kStepRoleCount] = {"kernel",        "memcpy",  "memset",
                                                       "communication", "runtime", "data loading",
                                                       "CPU op",        "other"};
    return QString::fromLatin1(labels[int(r) < kStepRoleCount ? int(r) : kStepRoleCount - 1]);
}

} // namespace strata
