#include "gap_style.h"

#include "analysis/gaps/gap_text.h"
#include "model/names/time_text.h"

namespace strata {

namespace {

// Names in a tooltip line are cut here (kernel and Python frame names run to hundreds).
constexpr size_t kMaxName = 80;

QString d(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

} // namespace

QString gapCauseText(GapCause cause) {
    return QString::fromUtf8(gapCauseLabel(cause));
}

QString gapDescription(const Trace& t, const ExplainedGap& e) {
    QString s = QStringLiteral("GPU idle %1 · %2").arg(d(e.gap.duration()), gapCauseText(e.cause));
    const QString reason = QString::fromStdString(gapReason(t, e, kMaxName));
    if (!e.launch.valid())
        s += "\n" + reason;
    else if (!e.launchedLate)
        s += QStringLiteral("\nlaunched before the gap began; %1").arg(reason);
    else if (e.late > 0)
        s += QStringLiteral("\nlaunched %1 late; %2").arg(d(e.late), reason);
    else
        s += QStringLiteral("\nthe launch call was running when the gap began; %1").arg(reason);
    const GapBreakdown& b = e.breakdown;
    if (b.known && e.launchedLate) {
        s += QStringLiteral("\nOn the launching thread:");
        for (const GapPart& p : b.parts)
            s += QStringLiteral("\n  %1  %2")
                     .arg(d(p.time), QString::fromStdString(gapPartText(t, p, kMaxName)));
        s += QStringLiteral("\ntraced calls and frames covered %1 % of the gap")
                 .arg(100.0 * e.tracedShare(), 0, 'f', 0);
    }
    if (!e.otherThreads.empty()) {
        s += QStringLiteral("\nMeanwhile, blocked:");
        for (const ThreadWait& w : e.otherThreads)
            s += QStringLiteral("\n  ") +
                 QString::fromStdString(threadWaitText(t, w, e.gap.duration(), kMaxName));
    }
    return s;
}

} // namespace strata
