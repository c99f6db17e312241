#pragma once
// strata-cli gaps and stats over several FILEs (the ranks of a job): a row per rank from each
// trace's own analysis and their whole (core/analysis/rank_totals.h). The traces are loaded on
// all cores and let go once reduced (cli_rank_set.h). strata-cli summary's own set rows are in
// cli_summary.cpp.
#include "cli_options.h"

#include <string>
#include <vector>

namespace strata::cli {

int gapsOfRanks(const std::vector<std::string>& files, const AnalysisArgs& args, bool json);
int statsOfRanks(const std::vector<std::string>& files, const AnalysisArgs& args, bool json,
                 size_t top);

} // namespace strata::cli
