// strata-cli synth-sections [--launches L] [--blocks B] [--tiles T] [--seed S] -o FILE.strata
// Writes a deterministic recording of instrumented kernel launches (io/synthetic_sections.h) and
// prints its totals as JSON.
#include "cli_commands.h"
#include "cli_options.h"

#include "io/synthetic/synthetic_sections.h"

#include <cstdio>
#include <string>

namespace strata::cli {

int synthSections(const Args& args) {
    SynthSectionsOptions o;
    std::string path;
    uint64_t launches = o.launches, blocks = o.blocks, tiles = o.tiles, seed = o.seed;
    const uint64_t kMax = (1ull << 31) - 1;
    CommandLine line("synth-sections",
                     "usage: strata-cli synth-sections [--launches L] [--blocks B] [--tiles T] "
                     "[--seed S] -o FILE.strata\n"
                     "  A synthetic recording of a tiled matmul instrumented with sections\n"
                     "  (B blocks x (2 T + 1) records per launch) for the Sections view.\n");
    line.option("--launches", wholeNumber("--launches", kMax, &launches))
        .option("--blocks", wholeNumber("--blocks", kMax, &blocks))
        .option("--tiles", wholeNumber("--tiles", kMax, &tiles))
        .option("--seed", wholeNumber("--seed", kMax, &seed))
        .option("-o", text(&path));
    if (const auto exit = line.parse(args)) return *exit;
    if (path.empty() || blocks == 0 || launches == 0)
        return line.usageError("needs -o FILE.strata, blocks and launches > 0");
    o.launches = uint32_t(launches);
    o.blocks = uint32_t(blocks);
    o.tiles = uint32_t(tiles);
    o.seed = seed;
    SynthSectionsTotals t;
    std::string error;
    if (!writeSyntheticSections(path, o, &t, &error)) {
        std::fprintf(stderr, "strata-cli synth-sections: %s\n", error.c_str());
        return 1;
    }
    std::printf("{\"records\": %llu, \"cycles\": {\"load tile\": %llu, \"compute\": %llu, "
                "\"store\": %llu}}\n",
                static_cast<unsigned long long>(t.records),
                static_cast<unsigned long long>(t.cyclesBySection[0]),
                static_cast<unsigned long long>(t.cyclesBySection[1]),
                static_cast<unsigned long long>(t.cyclesBySection[2]));
    return 0;
}

} // namespace strata::cli
