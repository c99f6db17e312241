#pragma once
// strata-cli ranks --mpi: under mpirun, the processes of the job share a set's files and digest
// them (cli_rank_set.h's digestEach, one file at a time), the largest first: the first process
// keeps the list, ordered by size, and hands the next file to whichever process asks (its own
// digesting thread included), so that one huge rank does not hold the others back. Then every
// process sends what it made (the digests, or the errors of the files it could not read) to the
// first, which returns them all for the one reduce (analysis/cross_rank.h). Built when CMake finds
// MPI (cli_mpi.cpp); without it (cli_mpi_absent.cpp) --mpi is refused.
#include "cli_rank_set.h"

#include <optional>
#include <string>
#include <vector>

namespace strata::cli {

bool mpiBuilt();

// Initialises and finalises MPI. On the first process (MPI rank 0): every file's outcome, in the
// order of `files`; on the others nullopt once their share is handed in. `options` for each
// process's loads (one file at a time is handed out).
std::optional<std::vector<DigestOutcome>> mpiDigestEach(const char* command,
                                                        const std::vector<std::string>& files,
                                                        const AnalysisSettings& settings,
                                                        const TraceSetOptions& options);

} // namespace strata::cli
