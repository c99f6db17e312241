#pragma once
// The advisor's findings (analysis/advice/advisor.h) as `strata-cli advise --json` prints them
// (without its timings, which the command adds): times in microseconds, places from `origin`
// (the trace's start):
//   {"warnings", "basis_us", "basis": "steps" | "span",
//    "findings": [{"rule", "severity", "title", "detail", "saving_us", "saving_share",
//                  "evidence": {name: number}, "where_us": [[start, end]]}]}
#include "analysis/advice/advisor.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json adviceToJson(const Advice& advice, TimeNs origin);

} // namespace strata
