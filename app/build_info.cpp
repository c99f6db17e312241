#include "build_info.h"

#include "analysis/ranks/rank_digest.h"
#include "io/strata/strata_format.h"

namespace strata {

const char* strataVersion() {
    return STRATA_VERSION;
}

std::string versionLine(const char* program) {
    return std::string(program) + " " + STRATA_VERSION;
}

std::string buildDetails() {
    std::string out = "trace formats: .strata " + std::to_string(format::kVersionMajor) + "." +
                      std::to_string(format::kVersionMinor) + " (written; reads " +
                      std::to_string(format::kVersionMajor) + ".x), rank digest " +
                      std::to_string(RankDigest::kVersion) +
                      "; reads Chrome/Kineto/Perfetto JSON (plain or gzip)\n";
#ifdef STRATA_CUDA_VERSION
    out += std::string("CUDA toolkit ") + STRATA_CUDA_VERSION +
           ": the CUPTI collector (strata-cli record, Profile > Launch)\n";
#else
    out += "built without the CUDA toolkit: no collector (record and Launch need one)\n";
#endif
#ifdef STRATA_MPI_VERSION
    out += std::string(STRATA_MPI_VERSION) + ": strata-cli ranks --mpi\n";
#else
    out += "built without MPI: no strata-cli ranks --mpi\n";
#endif
    return out;
}

} // namespace strata
