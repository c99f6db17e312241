// Placeholder until strata-cli summary lands; replaced by its implementation.
#include "cli_commands.h"

#include <cstdio>

int strata::cli::summary(const Args&) {
    std::fprintf(stderr, "strata-cli summary: not built yet\n");
    return 2;
}
