// Placeholder until strata-cli record lands; replaced by its implementation.
#include "cli_commands.h"

#include <cstdio>

int strata::cli::record(const Args&) {
    std::fprintf(stderr, "strata-cli record: not built yet\n");
    return 2;
}
