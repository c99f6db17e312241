// strata-cli built without MPI: --mpi is refused before it is used (cli_ranks.cpp).
#include "cli_mpi.h"

namespace strata::cli {

bool mpiBuilt() {
    return false;
}

std::optional<std::vector<DigestOutcome>> mpiDigestEach(const char*,
                                                        const std::vector<std::string>&,
                                                        const AnalysisSettings&,
                                                        const TraceSetOptions&) {
    return std::nullopt;
}

} // namespace strata::cli
