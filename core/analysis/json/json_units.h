#pragma once
// What the JSON of every result (analysis/json/) shares: times as microseconds, a double made of
// the nanoseconds / 1000 (exactly as each command wrote them before they lived here). For the
// files of this folder only.
namespace strata::json_units {

inline double us(double ns) {
    return ns / 1000.0;
}

} // namespace strata::json_units
