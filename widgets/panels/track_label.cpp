#include "track_label.h"

namespace strata {

QString trackLabel(const Trace& trace, TrackId id) {
    if (id >= trace.tracks().size()) return QStringLiteral("?");
    const Track& t = trace.track(id);
    QString label;
    switch (t.kind) {
    case TrackKind::Thread: {
        const Thread* th = trace.thread(t.pid, t.tid);
        const QString name = th && th->name ? toQString(trace.str(th->name)) : QString();
        label = name.isEmpty() ? QStringLiteral("Thread %1").arg(t.tid)
                               : QStringLiteral("%1 [%2]").arg(name).arg(t.tid);
        const Process* p = trace.process(t.pid);
        if (p && p->name)
            label +=
                QStringLiteral(" \u00b7 %1 [%2]").arg(toQString(trace.str(p->name))).arg(t.pid);
        else
            label += QStringLiteral(" \u00b7 pid %1").arg(t.pid);
        break;
    }
    case TrackKind::GpuStream:
        label = QStringLiteral("GPU %1 \u00b7 stream %2").arg(t.device).arg(t.tid);
        break;
    case TrackKind::Counter:
    case TrackKind::Async:
        label = toQString(trace.str(t.name));
        break;
    case TrackKind::ProcessInstants:
        label = QStringLiteral("Instants \u00b7 pid %1").arg(t.pid);
        break;
    case TrackKind::GlobalInstants:
        label = QStringLiteral("Global instants");
        break;
    }
    if (t.lane > 0) label += QStringLiteral(" (lane %1)").arg(t.lane + 1);
    return label;
}

} // namespace strata
