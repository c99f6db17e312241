#pragma once
// The Critical Path tab's tables (critical_path_view.h): the path's edges in order, and HTA's
// summary (the path's time per bound). Made from a CriticalPath and its trace; names shown short
// (Trace::displayName), in full on hover and in CSV.
#include "analysis/critical_path/critical_path.h"
#include "charts/row_table_model.h"

#include <QString>

#include <memory>
#include <vector>

namespace strata {

struct CpEdgeRow {
    int index = 0;            // along the path, from 1
    TimeNs at = 0;            // the edge's source time, from the window's start
    QString from, to;         // "aten::mm (start)", short
    QString fromFull, toFull; // the full names
    CpEdgeType type = CpEdgeType::Operator;
    TimeNs delay = 0; // HTA's weight (negative as it is)
    CpBound bound = CpBound::None;
    SliceRef event;        // what a click selects: the attributed event, else the destination's
    TimeNs t0 = 0, t1 = 0; // the edge's source and destination times
};

struct CpBoundRow {
    CpBound bound = CpBound::None;
    TimeNs time = 0;
    double share = 0; // of CriticalPath::boundTotal
};

std::vector<CpEdgeRow> edgeRows(const Trace& trace, const CriticalPath& path);
// The bounds with time on the path, longest first (HTA's summary).
std::vector<CpBoundRow> boundRows(const CriticalPath& path);

// From the path's first point to its last (it may end after its window: the GPU work launched in
// it); empty for a path without points.
TimeRange pathSpan(const CriticalPath& path);

std::vector<RowColumn<CpEdgeRow>> edgeColumns();
std::vector<RowColumn<CpBoundRow>> boundColumns();

} // namespace strata
