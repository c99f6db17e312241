#include "section_view_data.h"

#include "analysis/sections/section_value_text.h"
#include "style/qt_text.h"

namespace strata {

SectionViewData computeSectionView(const QString& title, std::vector<const SectionSet*> sets) {
    SectionViewData v;
    v.title = title;
    if (sets.empty()) return v;
    v.stats = sectionStats(sets);
    v.ns = v.stats.ns;
    v.launch = sets.front();
    const SectionSet& one = *v.launch;
    v.columns = sectionColumns(one);
    v.names = v.columns.names;
    v.clockHz = v.ns ? one.clockHz : 0;
    // Per block and per iteration in the pool's unit (cycles when any launch lacks a clock).
    v.blocks = blockSections(one, v.columns, 0);
    v.iterations = iterationSections(one, v.columns, 0);
    if (!v.ns && one.clockHz > 0) { // the pool is in cycles: undo the launch's conversion
        const double k = one.clockHz / 1e9;
        for (BlockSections& b : v.blocks) {
            b.total *= k;
            for (double& x : b.bySection) x *= k;
        }
        for (auto& row : v.iterations)
            for (double& x : row) x *= k;
    }
    if (one.hasTimes) v.lanes = layoutSmLanes(v.blocks);
    v.perIteration = !one.hasTimes;
    return v;
}

QString sectionValueText(double value, bool ns) {
    return toQString(formatSectionValue(value, ns));
}

} // namespace strata
