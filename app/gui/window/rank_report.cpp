#include "window/rank_report.h"

#include "model/names/time_text.h"
#include "workspace/rank_set.h"

#include <QFileInfo>
#include <QObject>

namespace strata {

QString rankReportHtml(const RankSet& ranks) {
    const QString name = rankCount(ranks.ranks().size());
    size_t reachable = 0;
    for (const SetRank& r : ranks.ranks()) reachable += QFileInfo::exists(r.path) ? 1 : 0;
    QString stragglers;
    for (const CrossRankStep& s : ranks.report().steps) {
        if (!s.straggler) continue;
        stragglers += QObject::tr("<br>%1: %2, %3 late")
                          .arg(QString::fromStdString(s.name).toHtmlEscaped(),
                               ranks.label(*s.straggler).toHtmlEscaped(),
                               QString::fromStdString(formatDuration(s.delay)));
        // Its late start, when it is also the rank that started the step last.
        if (s.lastToStart == s.straggler && s.startedLate > 0)
            stragglers += QObject::tr(" (it started its step %1 late)")
                              .arg(QString::fromStdString(formatDuration(s.startedLate)));
    }
    return QObject::tr(
               "<h3>%1 from their digests</h3><p>The job's ranks as <i>strata-cli digest</i> "
               "reduced them where they ran: the Ranks dock shows their alignment, the rank × "
               "step map with the stragglers marked and the collectives the others waited at.</p>"
               "<p><b>Stragglers</b>%2</p><p>Double-click a rank (or its cell of the map) to open "
               "its trace in a new window: %3 of the %4 traces the digests name are reachable "
               "from here.</p>")
        .arg(name, stragglers.isEmpty() ? QObject::tr(": none") : stragglers)
        .arg(reachable)
        .arg(ranks.ranks().size());
}

} // namespace strata
