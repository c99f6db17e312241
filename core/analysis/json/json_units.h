#pragma once
// What the JSON of every result (analysis/json/) shares: times as microseconds (a double: the
// nanoseconds / 1000), null for what is absent. For the files of this folder only.
#include "model/time.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace strata::json_units {

inline double us(double ns) {
    return ns / 1000.0;
}

} // namespace strata::json_units
