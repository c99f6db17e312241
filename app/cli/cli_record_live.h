#pragma once
// strata-cli record --live: waits for the target as record does, printing once a second on
// stderr how the run goes, from its trace file as the collector writes it
// (record/live_status.h): "strata-cli record: live: 98,304 kernels/s · GPU busy 87% · 0 dropped
// · 12.3 MB".
#include <cstdio>

namespace strata {
class Launcher;
}

namespace strata::cli {

// Returns the target's exit code (Launcher::wait()).
int waitPrintingLiveStatus(Launcher& launcher, std::FILE* out);

} // namespace strata::cli
