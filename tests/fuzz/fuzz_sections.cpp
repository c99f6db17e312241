// libFuzzer harness for the timer-array imports (io/sections/sections_import.h), built once per
// format (STRATA_FUZZ_FORMAT: 0 .npy, 1 .csv, 2 .json, 3 .sections): any bytes must give sets or
// an error that says why, never a crash, an exception, a hang or memory beyond the input's size;
// what loads then goes through the analyses the CLI and the Sections dock run on it (statistics,
// the chart columns, per block, per iteration, the SM slot layout), which must hold the same.
#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#ifndef STRATA_FUZZ_FORMAT
#error "STRATA_FUZZ_FORMAT: 0 npy, 1 csv, 2 json, 3 sections"
#endif

namespace {

strata::SectionsImport parse(std::string_view bytes) {
    const strata::SectionsImportOptions o;
    switch (STRATA_FUZZ_FORMAT) {
    case 0:
        return strata::parseNpySections("fuzz.npy", bytes, o);
    case 1:
        return strata::parseCsvSections("fuzz.csv", bytes, o);
    case 2:
        return strata::parseJsonSections("fuzz.json", bytes, o);
    default:
        return strata::parseSectionsFile("fuzz.sections", bytes, o);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const strata::SectionsImport r =
        parse(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!r.ok()) {
        if (!r.sets.empty()) __builtin_trap(); // an error reads nothing
        return 0;
    }
    if (r.sets.empty()) __builtin_trap(); // success holds something
    std::vector<const strata::SectionSet*> all;
    for (const strata::SectionSet& s : r.sets) {
        all.push_back(&s);
        const strata::SectionColumns c = strata::sectionColumns(s);
        if (c.count() > strata::kMaxSectionColumns + 1) __builtin_trap();
        const auto blocks = strata::blockSections(s, c);
        const auto iterations = strata::iterationSections(s, c);
        if (iterations.size() > s.samples.size()) __builtin_trap(); // rows follow the samples
        if (s.hasTimes) (void)strata::layoutSmLanes(blocks);
    }
    (void)strata::sectionStats(all);
    return 0;
}
