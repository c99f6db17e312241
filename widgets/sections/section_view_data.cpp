#include "section_view_data.h"

#include "model/time_text.h"
#include "style/qt_text.h"

#include <cmath>

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
    if (!ns) { // to a tenth of a cycle, shown when there is one
        const long long tenths = std::llround(value * 10);
        QString text = groupedDigits(tenths / 10);
        if (tenths % 10) text += "." + QString::number(std::llabs(tenths % 10));
        return text + " cycles";
    }
    // Cycles through a clock rate are seldom whole ns: below a µs, 4 significant digits (a
    // whole number of ns as it is); above, formatDuration's.
    if (value < 999.95) {
        if (value == std::trunc(value)) return QString::number(qlonglong(value)) + " ns";
        return QString::number(value, 'f', value < 10 ? 3 : value < 100 ? 2 : 1) + " ns";
    }
    return QString::fromStdString(formatDuration(TimeNs(std::llround(value))));
}

} // namespace strata
