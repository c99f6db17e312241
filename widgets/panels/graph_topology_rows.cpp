#include "panels/graph_topology_rows.h"

#include "analysis/graphs/graph_topology.h"
#include "style/qt_text.h"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace strata {

namespace {

// "node 12 · bias(float*)"; a node of another type says it ("node 14 · host ·
// step(void*)") and why it has no slice.
QString topologyNodeText(const GraphTopology& topo, int64_t id) {
    QString text = QObject::tr("node %1").arg(id);
    const GraphTopologyNode* n = topo.node(id);
    if (!n) return text;
    if (n->type != "kernel") text += QStringLiteral(" \u00b7 ") + toQString(n->type);
    if (!n->name.empty()) text += QStringLiteral(" \u00b7 ") + toQString(n->name);
    if (const std::string_view note = untimedNodeNote(n->type); !note.empty())
        text += QStringLiteral(" (%1)").arg(toQString(note));
    return text;
}

// "4 (3 kernel, 1 host)": types in the order they first appear.
QString topologyNodeCounts(const GraphTopology& topo) {
    std::vector<std::pair<std::string, int>> types;
    for (const GraphTopologyNode& n : topo.nodes) {
        auto it = std::find_if(types.begin(), types.end(),
                               [&](const auto& x) { return x.first == n.type; });
        if (it == types.end())
            types.push_back({n.type, 1});
        else
            ++it->second;
    }
    QStringList parts;
    for (const auto& [type, count] : types)
        parts << QStringLiteral("%1 %2").arg(count).arg(toQString(type));
    return QStringLiteral("%1 (%2)").arg(topo.nodes.size()).arg(parts.join(QStringLiteral(", ")));
}

} // namespace

std::vector<DetailRow> graphTopologyRows(const Trace& t, const GraphReplay& g, SliceRef r,
                                         size_t maxLinks) {
    auto nodeId = [&](SliceRef n) {
        const GpuActivity* a = n.valid() ? t.gpu(n) : nullptr;
        return a ? a->graphNodeId : int64_t(-1);
    };
    const int64_t self = r == g.launch ? -1 : nodeId(r);
    const std::optional<GraphTopology> topo =
        graphTopology(t, g.graphId, self >= 0 || g.nodes.empty() ? self : nodeId(g.nodes[0]));
    if (!topo) return {};
    std::vector<DetailRow> rows{
        {QObject::tr("Executable graph"), QString::number(topo->execId), {}},
        {QObject::tr("Nodes"), topologyNodeCounts(*topo), {}},
        {QObject::tr("Edges"), QString::number(topo->edges.size()), {}}};
    auto runOf = [&](int64_t id) {
        for (SliceRef n : g.nodes)
            if (nodeId(n) == id) return n;
        return SliceRef{};
    };
    auto add = [&](const QString& field, const std::vector<int64_t>& ids, const QString& none) {
        for (size_t i = 0; i < ids.size() && i < maxLinks; ++i)
            rows.push_back({field, topologyNodeText(*topo, ids[i]), runOf(ids[i])});
        if (ids.size() > maxLinks)
            rows.push_back({field, QObject::tr("%1 more").arg(ids.size() - maxLinks), {}});
        if (ids.empty() && !none.isEmpty()) rows.push_back({field, none, {}});
    };
    if (self >= 0 && topo->node(self)) {
        add(QObject::tr("After"), topo->predecessors(self), QObject::tr("\u2014 (a first node)"));
        add(QObject::tr("Before"), topo->successors(self), QObject::tr("\u2014 (a last node)"));
    } else if (self < 0) {
        std::vector<int64_t> untimed;
        for (const GraphTopologyNode& n : topo->nodes)
            if (!runOf(n.id).valid()) untimed.push_back(n.id);
        add(QObject::tr("Without a slice"), untimed, {});
    }
    return rows;
}

} // namespace strata
