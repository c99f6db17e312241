#include "critical_path_rows.h"

#include "charts/row_columns.h"

#include <algorithm>

namespace strata {

namespace {

QString pointText(const Trace& trace, const CpPoint& p, bool full) {
    if (!p.event.valid()) return QStringLiteral("—");
    const std::string_view name =
        full ? trace.name(p.event)
             : trace.displayName(trace.track(p.event.track).slices.name[p.event.index]);
    return toQString(name) + (p.isStart ? QStringLiteral(" (start)") : QStringLiteral(" (end)"));
}

QString percent(double share) {
    return QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %");
}

} // namespace

std::vector<CpEdgeRow> edgeRows(const Trace& trace, const CriticalPath& path) {
    std::vector<CpEdgeRow> rows;
    rows.reserve(path.edges.size());
    for (const CpPathEdge& e : path.edges) {
        if (e.from >= path.points.size() || e.to >= path.points.size()) continue;
        const CpPoint& a = path.points[e.from];
        const CpPoint& b = path.points[e.to];
        CpEdgeRow r;
        r.index = int(rows.size()) + 1;
        r.at = a.time - path.window.start;
        r.from = pointText(trace, a, false);
        r.to = pointText(trace, b, false);
        r.fromFull = pointText(trace, a, true);
        r.toFull = pointText(trace, b, true);
        r.type = e.type;
        r.delay = e.weight;
        r.bound = e.bound;
        r.event = e.attributed.valid() ? e.attributed : b.event;
        r.t0 = a.time;
        r.t1 = b.time;
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<CpBoundRow> boundRows(const CriticalPath& path) {
    std::vector<CpBoundRow> rows;
    for (size_t b = 1; b < kCpBoundCount; ++b) { // None (dependency, sync) is not classed
        const TimeNs t = path.byBound[b];
        if (t == 0) continue;
        rows.push_back(
            {CpBound(b), t, path.boundTotal > 0 ? double(t) / double(path.boundTotal) : 0.0});
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const CpBoundRow& a, const CpBoundRow& b) { return a.time > b.time; });
    return rows;
}

TimeRange pathSpan(const CriticalPath& path) {
    if (path.points.empty()) return {};
    TimeRange r{path.points.front().time, path.points.front().time};
    for (const CpPoint& p : path.points) {
        r.start = std::min(r.start, p.time);
        r.end = std::max(r.end, p.time);
    }
    return r;
}

std::vector<RowColumn<CpEdgeRow>> edgeColumns() {
    return {
        {"#", [](const CpEdgeRow& r) { return QString::number(r.index); },
         [](const CpEdgeRow& r) { return double(r.index); }},
        timeColumn<CpEdgeRow>("At", [](const CpEdgeRow& r) { return double(r.at); }),
        nameColumn<CpEdgeRow>(
            "From", [](const CpEdgeRow& r) { return r.from; },
            [](const CpEdgeRow& r) { return r.fromFull; }),
        nameColumn<CpEdgeRow>(
            "To", [](const CpEdgeRow& r) { return r.to; },
            [](const CpEdgeRow& r) { return r.toFull; }),
        {"Edge", [](const CpEdgeRow& r) { return QString(cpEdgeTypeName(r.type)); }, {}},
        timeColumn<CpEdgeRow>("Delay", [](const CpEdgeRow& r) { return double(r.delay); }),
        {"Bound", [](const CpEdgeRow& r) { return QString(cpBoundName(r.bound)); }, {}},
    };
}

std::vector<RowColumn<CpBoundRow>> boundColumns() {
    return {
        {"Bound", [](const CpBoundRow& r) { return QString(cpBoundName(r.bound)); }, {}},
        timeColumn<CpBoundRow>("Time", [](const CpBoundRow& r) { return double(r.time); }),
        {"% of path", [](const CpBoundRow& r) { return percent(r.share); },
         [](const CpBoundRow& r) { return r.share; }},
    };
}

} // namespace strata
