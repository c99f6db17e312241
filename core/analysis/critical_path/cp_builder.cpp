#include "analysis/critical_path/cp_builder.h"

#include <algorithm>
#include <tuple>

namespace strata::cp {

namespace {
size_t nodeCount(const Events& events) {
    size_t n = 0;
    for (const Event& e : events.events) n += (e.flags & kNodes) ? 2 : 0;
    return n;
}
} // namespace

Builder::Builder(const Trace& trace, Events& events)
    : trace_(trace), ev_(events), graph_(nodeCount(events)) {
    // HTA's _create_event_nodes: a start and an end node per event, sorted by (time, event).
    nodes_.reserve(nodeCount(events));
    for (uint32_t i = 0; i < ev_.events.size(); ++i) {
        const Event& e = ev_.events[i];
        if (!(e.flags & kNodes)) continue;
        nodes_.push_back(Node{i, e.start, true});
        nodes_.push_back(Node{i, e.end, false});
    }
    std::stable_sort(nodes_.begin(), nodes_.end(), [](const Node& a, const Node& b) {
        return std::tie(a.ts, a.event) < std::tie(b.ts, b.event);
    });
    for (uint32_t n = 0; n < nodes_.size(); ++n) {
        Event& e = ev_.events[nodes_[n].event];
        (nodes_[n].isStart ? e.startNode : e.endNode) = n;
    }
}

uint32_t Builder::add(uint32_t from, uint32_t to, CpEdgeType type, bool zeroWeight) {
    const bool zero = zeroWeight || type == CpEdgeType::Dependency || type == CpEdgeType::Sync;
    return graph_.addEdge(from, to, type, zero ? 0 : nodes_[to].ts - nodes_[from].ts);
}

// HTA's _attribute_edge: an operator edge belongs to its source's event when the source is a
// start, else to its destination's when that is an end, else (an end to a start: between two
// children) to the source's parent; a kernel-kernel delay to the earlier op.
void Builder::attribute(uint32_t edge, uint32_t srcParent) {
    GraphEdge& e = graph_.edge(edge);
    if (e.type != CpEdgeType::Operator && e.type != CpEdgeType::KernelKernelDelay) return;
    const Node& src = nodes_[e.from];
    const Node& dst = nodes_[e.to];
    if (e.type == CpEdgeType::KernelKernelDelay || src.isStart)
        e.attributed = src.event;
    else if (!dst.isStart)
        e.attributed = dst.event;
    else
        e.attributed = srcParent;
}

// HTA's _construct_graph_from_cuda_runtime_events: calls that take the runtime lock, on any
// thread, chained in the order they end; every start pending at an end leads to it.
void Builder::addLockEdges() {
    std::vector<uint32_t> starts;
    uint32_t last = kNone;
    for (uint32_t n = 0; n < nodes_.size(); ++n) {
        const Node& node = nodes_[n];
        if (!(ev_.events[node.event].flags & kLock)) continue;
        if (node.isStart) {
            starts.push_back(n);
        } else {
            while (!starts.empty()) {
                const uint32_t s = starts.back();
                starts.pop_back();
                if (nodes_[s].event == node.event)
                    attribute(add(s, n, CpEdgeType::Operator), node.event);
                else
                    add(s, n, CpEdgeType::Dependency);
            }
            if (last != kNone && !nodes_[last].isStart) add(last, n, CpEdgeType::Dependency);
        }
        last = n;
    }
}

bool Builder::sharesLock(uint32_t a, uint32_t b) const {
    return (ev_.events[nodes_[a].event].flags & kLock) &&
           (ev_.events[nodes_[b].event].flags & kLock) && (nodes_[a].isStart || !nodes_[b].isStart);
}

// HTA's call graph: each (pid, tid), in order, its CPU events.
void Builder::addCallStackEdges() {
    std::vector<uint32_t> cpu;
    for (uint32_t i = 0; i < ev_.events.size(); ++i)
        if (ev_.events[i].flags & kCpu) cpu.push_back(i);
    std::stable_sort(cpu.begin(), cpu.end(), [&](uint32_t a, uint32_t b) {
        const Event& x = ev_.events[a];
        const Event& y = ev_.events[b];
        return std::tie(x.pid, x.tid) < std::tie(y.pid, y.tid);
    });
    std::vector<uint32_t> thread;
    for (size_t i = 0; i < cpu.size(); ++i) {
        thread.push_back(cpu[i]);
        const Event& e = ev_.events[cpu[i]];
        if (i + 1 == cpu.size() || ev_.events[cpu[i + 1]].pid != e.pid ||
            ev_.events[cpu[i + 1]].tid != e.tid) {
            addThreadEdges(thread);
            thread.clear();
        }
    }
}

namespace {

// A start or end of an event, ordered as HTA's compare_events orders them when every event
// lasts > 0: by time; at equal times ends first; starts longer first, then by event; ends
// shorter first, then the later event first.
struct StackMark {
    TimeNs time;
    bool isStart;
    TimeNs dur;
    uint32_t event;
    friend bool operator<(const StackMark& a, const StackMark& b) {
        if (a.time != b.time) return a.time < b.time;
        if (a.isStart != b.isStart) return !a.isStart;
        if (a.isStart) return a.dur != b.dur ? a.dur > b.dur : a.event < b.event;
        return a.dur != b.dur ? a.dur < b.dur : a.event > b.event;
    }
};

} // namespace

// One thread: HTA's call stack (each start under the event on top, each end popping the top),
// walked depth first with HTA's enter and exit functions.
void Builder::addThreadEdges(const std::vector<uint32_t>& events) {
    std::vector<StackMark> marks;
    marks.reserve(events.size() * 2);
    for (uint32_t i : events) {
        const Event& e = ev_.events[i];
        marks.push_back(StackMark{e.start, true, e.end - e.start, i});
        marks.push_back(StackMark{e.end, false, e.end - e.start, i});
    }
    std::sort(marks.begin(), marks.end());
    std::unordered_map<uint32_t, uint32_t> parent;
    std::unordered_map<uint32_t, std::vector<uint32_t>> children;
    std::vector<uint32_t> roots, stack;
    for (const StackMark& m : marks) {
        if (!m.isStart) {
            if (!stack.empty()) stack.pop_back();
            continue;
        }
        if (stack.empty()) {
            roots.push_back(m.event);
            parent[m.event] = kNone;
        } else {
            children[stack.back()].push_back(m.event);
            parent[m.event] = stack.back();
        }
        stack.push_back(m.event);
    }

    uint32_t last = kNone, lastParent = kNone;
    int depth = 0;
    const auto enter = [&](uint32_t i) {
        const Event& e = ev_.events[i];
        if (e.startNode == kNone) return;
        if (last != kNone && !sharesLock(last, e.startNode)) {
            const CpEdgeType t = depth == 0 ? CpEdgeType::Dependency : CpEdgeType::Operator;
            attribute(add(last, e.startNode, t), lastParent);
        }
        last = e.startNode;
        lastParent = parent[i];
        ++depth;
    };
    const auto exit = [&](uint32_t i) {
        const Event& e = ev_.events[i];
        if (e.endNode == kNone) return;
        if (last != kNone && !sharesLock(last, e.endNode))
            attribute(add(last, e.endNode, CpEdgeType::Operator, (e.flags & kBlocking) != 0),
                      lastParent);
        last = e.endNode;
        lastParent = parent[i];
        --depth;
    };
    // Depth first, without recursion: (event, next child to visit).
    std::vector<std::pair<uint32_t, size_t>> walk;
    for (uint32_t root : roots) {
        enter(root);
        walk.emplace_back(root, 0);
        while (!walk.empty()) {
            auto& [event, next] = walk.back();
            const auto it = children.find(event);
            if (it != children.end() && next < it->second.size()) {
                const uint32_t child = it->second[next++];
                enter(child);
                walk.emplace_back(child, 0);
            } else {
                exit(event);
                walk.pop_back();
            }
        }
    }
}

} // namespace strata::cp
