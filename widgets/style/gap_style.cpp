#include "gap_style.h"

#include "model/time_text.h"
#include "style/qt_text.h"

namespace strata {

QString gapDescription(const Trace& t, const ExplainedGap& e) {
    auto d = [](TimeNs ns) { return QString::fromStdString(formatDuration(ns)); };
    QString s = QStringLiteral("GPU idle %1 · %2").arg(d(e.gap.duration()), gapCauseName(e.cause));
    switch (e.cause) {
    case GapCause::LaunchBound:
    case GapCause::Synchronization: {
        s += QStringLiteral("\nlaunched %1 late").arg(d(e.late));
        if (e.blockingCall.valid())
            s += QStringLiteral(", after %1 ended in the gap")
                     .arg(toQString(t.name(e.blockingCall)));
        if (e.gap.duration() > 0)
            s += QStringLiteral("; traced CPU work covered %1 % of it")
                     .arg(100.0 * double(e.cpuCovered) / double(e.gap.duration()), 0, 'f', 0);
        if (!e.cpu.empty()) {
            s += QStringLiteral("\nCPU:");
            for (size_t i = 0; i < e.cpu.size() && i < 3; ++i)
                s += QStringLiteral(" %1 %2%3")
                         .arg(toQString(t.str(e.cpu[i].name)).left(60), d(e.cpu[i].overlap),
                              i + 1 < std::min<size_t>(3, e.cpu.size()) ? "," : "");
        }
        break;
    }
    case GapCause::Dependency:
        s += QStringLiteral("\nlaunched before the gap began");
        if (e.waitedOn.valid())
            s += QStringLiteral("; waited on %1 (ended %2 before the next op)")
                     .arg(toQString(t.name(e.waitedOn)).left(80),
                          d(e.gap.end - (t.start(e.waitedOn) + t.duration(e.waitedOn))));
        if (e.waitCall.valid())
            s += QStringLiteral("; after %1").arg(toQString(t.name(e.waitCall)));
        break;
    case GapCause::Unattributed:
        s += QStringLiteral("\nthe trace has no launch call for the op that ends it");
        break;
    }
    return s;
}

} // namespace strata
