#pragma once
// What this build of Strata is: its version and, for `--version --verbose` and Help > About, the
// versions of what it was built with (the CUDA toolkit whose CUPTI the collector uses, MPI) and
// of the trace formats it writes and reads. Shared by strata and strata-cli; Qt-free (the GUI adds
// Qt's line).
#include <string>

namespace strata {

const char* strataVersion();                  // "0.1.0" (CMake's project version)
std::string versionLine(const char* program); // "strata-cli 0.1.0"
// One line per component, each ending in '\n'.
std::string buildDetails();

} // namespace strata
