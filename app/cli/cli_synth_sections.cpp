// strata-cli synth-sections [--launches L] [--blocks B] [--tiles T] [--seed S] -o FILE.strata
// Writes a deterministic recording of instrumented kernel launches (io/synthetic_sections.h) and
// prints its totals as JSON.
#include "cli_commands.h"

#include "io/synthetic_sections.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace strata::cli {

int synthSections(const Args& args) {
    SynthSectionsOptions o;
    std::string path;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::printf("usage: strata-cli synth-sections [--launches L] [--blocks B] [--tiles T] "
                        "[--seed S] -o FILE.strata\n"
                        "  A synthetic recording of a tiled matmul instrumented with sections\n"
                        "  (B blocks x (2 T + 1) records per launch) for the Sections view.\n");
            return 0;
        }
        if (i + 1 >= args.size()) {
            std::fprintf(stderr, "strata-cli synth-sections: %s needs a value\n", a.c_str());
            return 2;
        }
        const std::string& v = args[++i];
        char* end = nullptr;
        const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        const bool number = !v.empty() && *end == '\0' && n < (1ull << 31) && v[0] != '-';
        if (a == "-o")
            path = v;
        else if (!number) {
            std::fprintf(stderr, "strata-cli synth-sections: %s expects a number, got '%s'\n",
                         a.c_str(), v.c_str());
            return 2;
        } else if (a == "--launches")
            o.launches = uint32_t(n);
        else if (a == "--blocks")
            o.blocks = uint32_t(n);
        else if (a == "--tiles")
            o.tiles = uint32_t(n);
        else if (a == "--seed")
            o.seed = n;
        else {
            std::fprintf(stderr, "strata-cli synth-sections: unknown option '%s'\n", a.c_str());
            return 2;
        }
    }
    if (path.empty() || o.blocks == 0 || o.launches == 0) {
        std::fprintf(stderr,
                     "strata-cli synth-sections: needs -o FILE.strata, blocks and launches > 0\n");
        return 2;
    }
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
