// Placeholder until strata-cli synth lands; replaced by its implementation.
#include "cli_commands.h"

#include <cstdio>

int strata::cli::synth(const Args&) {
    std::fprintf(stderr, "strata-cli synth: not built yet\n");
    return 2;
}
