#pragma once
// What the Sections view shows for one choice of launches, computed off the GUI thread
// (core/analysis/section_stats.h, section_lanes.h): the statistics over the pooled launches,
// and for one launch (the chosen one, or the first of a pool) its blocks, iterations and SM lanes.
#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"

#include <QString>

#include <memory>
#include <vector>

namespace strata {

struct SectionViewData {
    QString title;                      // "matmul — 5 launches", "matmul — launch 42", a file
    SectionStats stats;                 // pooled
    const SectionSet* launch = nullptr; // the one launch the per-block charts show
    // The charts' columns (of `launch`): at most kMaxSectionColumns sections, the largest by
    // time, and "other" for the rest; `names` by column.
    SectionColumns columns;
    std::vector<std::string> names;
    std::vector<BlockSections> blocks;           // of `launch`, by block index
    std::vector<std::vector<double>> iterations; // of `launch`: [iteration][column]
    SmLaneLayout lanes;                          // of `launch` (empty for imports: no times)
    double clockHz = 0;                          // of `launch`: cycles -> ns (0: values in cycles)
    bool ns = false;                             // values in ns
    // An imported timer array times[section][iteration] (no blocks, no %globaltimer): its
    // statistics are over iterations (as strata-cli sections prints them), its box plot too;
    // the heatmap and the SM timeline, which need blocks and times, are not offered.
    bool perIteration = false;
};

// Computes the view of `sets` (pooled; the first is the one launch shown per block).
SectionViewData computeSectionView(const QString& title, std::vector<const SectionSet*> sets);

// A value of the view as text (formatSectionValue, as strata-cli sections prints it): a time
// ("12.35 µs", "850 ns", "183.3 ns", "3.500 ns") when `ns`, else cycles ("12 345 cycles",
// "1 999.5 cycles").
QString sectionValueText(double value, bool ns);

} // namespace strata
