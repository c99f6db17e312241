#pragma once
// Statistics of in-kernel timer sections (model/kernel_sections.h), for strata-cli sections and
// the Sections view: per section over its samples (each closed section of each block, or each
// cell of an imported times[section][iteration] array), and per section over blocks (each
// block's total time in the section).
//
// Definitions (the same everywhere): median = the middle value, the mean of the two middle values
// for an even count; p95 = the ceil(0.95 n)-th smallest (nearest rank); share = the section's
// total over all sections' totals. Values are ns when every set pooled has a clock rate (cycles
// converted through it) and cycles otherwise.
#include "model/kernel_sections.h"

#include <span>
#include <string>
#include <vector>

namespace strata {

struct ValueStats {
    uint64_t count = 0;
    double total = 0, mean = 0, median = 0, p95 = 0, min = 0, max = 0;
};
// Of `values` (sorted in place).
ValueStats valueStats(std::vector<double>& values);

struct SectionStat {
    std::string name;
    uint16_t id = 0;
    ValueStats samples; // over the samples (closed sections)
    ValueStats blocks;  // over blocks: each block's total in this section
    double share = 0;   // samples.total / the total of all sections
};

struct SectionStats {
    bool ns = false;                   // values in ns (clock rate known); else cycles
    double clockHz = 0;                // the clock rate used (0: none)
    uint64_t launches = 0;             // sets pooled
    uint64_t blocks = 0;               // distinct (set, block) pairs
    uint64_t lost = 0;                 // records lost to full device buffers
    double total = 0;                  // all sections' total
    std::vector<SectionStat> sections; // by section id; sections without samples left out
    std::vector<std::string> warnings; // lost records, mixed clock rates, ...
    const char* unit() const { return ns ? "ns" : "cycles"; }
};

// The statistics of the samples of `sets` pooled (the launches of one kernel, say). Sections are
// matched by id; names come from the first set naming them. `clockHz` > 0 overrides the sets'.
SectionStats sectionStats(std::span<const SectionSet* const> sets, double clockHz = 0);

// The sections the per-block and per-iteration views give a column of their own: at most
// kMaxSectionColumns, the largest by total time (in id order), the others folded into one
// "other" column after them. Cost and memory follow the samples, never the largest section id:
// a file whose one section is 65,535 has one column, a file with 10,000 sections 12 + "other".
inline constexpr size_t kMaxSectionColumns = 12;
struct SectionColumns {
    std::vector<uint16_t> ids;      // the sections shown, ascending
    std::vector<std::string> names; // theirs, then "other (N sections)" when some are folded
    size_t folded = 0;              // sections in the "other" column (0: there is none)
    size_t count() const { return names.size(); }
    // The column of section `id`: its own, or the "other" one.
    size_t columnOf(uint16_t id) const;
    // The section of column `c` (its id), or -1 for "other".
    int idOf(size_t c) const { return c < ids.size() ? int(ids[c]) : -1; }
};
SectionColumns sectionColumns(const SectionSet& set, size_t max = kMaxSectionColumns);

// Per block of one set: its total time in each column (`columns` of the set), in the set's unit
// (ns when its clock rate is known), its SM and its first start (ns, 0 for imports).
struct BlockSections {
    uint32_t block = 0;
    uint16_t sm = 0;
    int64_t startNs = 0, endNs = 0; // raw device ns of its first start and last end
    double total = 0;               // over all sections
    std::vector<double> bySection;  // by column
};
std::vector<BlockSections> blockSections(const SectionSet& set, const SectionColumns& columns,
                                         double clockHz = 0);
// The same with sectionColumns(set).
std::vector<BlockSections> blockSections(const SectionSet& set, double clockHz = 0);

// Per iteration of one set: each column's time summed over blocks (the stacked-bar picture),
// [iteration][column].
std::vector<std::vector<double>>
iterationSections(const SectionSet& set, const SectionColumns& columns, double clockHz = 0);
std::vector<std::vector<double>> iterationSections(const SectionSet& set, double clockHz = 0);

} // namespace strata
