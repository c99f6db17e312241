#pragma once
// The Details dock's "Graph topology" rows for a CUDA graph replay (issue 51): worked out away
// from the tree from the topology the collector recorded (analysis/graphs/graph_topology.h).
#include "analysis/graphs/graph_replays.h"

#include <QString>

#include <vector>

namespace strata {

// A row worked out away from the tree: a link to `target` when it is valid.
struct DetailRow {
    QString field, value;
    SliceRef target;
};

// The topology of a replay's graph (analysis/graphs/graph_topology.h), where the collector
// recorded it: its size; for a node, the nodes it runs after and before (linked to their runs in
// this replay); for the launch, the nodes the replay has no slice for (host nodes).
std::vector<DetailRow> graphTopologyRows(const Trace& t, const GraphReplay& g, SliceRef r,
                                         size_t maxLinks);

} // namespace strata
