#pragma once
// Reads in-kernel timer sections from a file (model/kernel_sections.h):
//   .npy      times[section][iteration], int64, int32, uint64 or uint32, 2-D, C or Fortran
//             order (the Quadrants/Genesis clock_counter layout); names from `names` or
//             "section N"
//   .csv      a header row of section names, then one row per iteration
//   .json     {"sections": [names], "clock_hz": number?, "times": [[...], ...]}, one inner list
//             per section
//   .sections what the host helper (kernels/include/strata/sections_host.h) writes when no
//             collector is injected: one block per launch, each a header and 48-byte records
// Values are clock deltas (cycles) unless a clock rate is known. Any problem is an error naming
// the file and what is wrong (the dtype, the line, the cell, the byte offset); nothing partial.
// Each format is a reader of its own (io/formats/*_timer_array.cpp, sections_file.cpp) that
// recognises its files by content; what they load is a Trace holding the sections alone.
#include "io/load_result.h"
#include "model/kernel_sections.h"

#include <string>
#include <vector>

namespace strata {

struct SectionsImportOptions {
    std::vector<std::string> names; // section names for files without them (.npy), or overriding
    double clockHz = 0;             // > 0: cycles per second (overrides the file's)
};

struct SectionsImport {
    std::vector<SectionSet> sets; // one per launch (.sections) or one (an array)
    std::vector<std::string> warnings;
    std::string error; // non-empty: nothing was read
    bool ok() const { return error.empty(); }
};

// The sections of a file in any of the formats above, recognised by content (io/trace_reader.h);
// an error when it is none of them.
SectionsImport importSections(const std::string& path, const SectionsImportOptions& options = {});

// What the sections readers share: the file read whole, parsed, and the sets (with their
// warnings) as a Trace of their own.
using SectionsParser = SectionsImport (*)(const std::string& path, std::string_view bytes,
                                          const SectionsImportOptions& options);
LoadResult loadSectionsFile(const std::string& path, const LoadOptions& options,
                            SectionsParser parse);

// The parsers, on bytes already read (`path` names the file in messages).
SectionsImport parseNpySections(const std::string& path, std::string_view bytes,
                                const SectionsImportOptions& options);
SectionsImport parseCsvSections(const std::string& path, std::string_view text,
                                const SectionsImportOptions& options);
SectionsImport parseJsonSections(const std::string& path, std::string_view text,
                                 const SectionsImportOptions& options);
SectionsImport parseSectionsFile(const std::string& path, std::string_view bytes,
                                 const SectionsImportOptions& options);

// A number as strata-cli options give it: "1980000000", "1.98e9", "1.98E+09"; false if not.
bool parseSectionsNumber(std::string_view text, double* out);

} // namespace strata
