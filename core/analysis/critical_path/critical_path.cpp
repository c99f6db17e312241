#include "analysis/critical_path/critical_path.h"

#include "analysis/analysis_range.h"
#include "analysis/critical_path/cp_builder.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace strata {

using cp::kNone;

const char* cpEdgeTypeName(CpEdgeType t) {
    switch (t) {
    case CpEdgeType::Operator:
        return "operator";
    case CpEdgeType::Dependency:
        return "dependency";
    case CpEdgeType::LaunchDelay:
        return "kernel_launch_delay";
    case CpEdgeType::KernelKernelDelay:
        return "kernel_kernel_delay";
    case CpEdgeType::Sync:
        return "sync_dependency";
    }
    return "";
}

const char* cpBoundName(CpBound b) {
    switch (b) {
    case CpBound::None:
        return "";
    case CpBound::Cpu:
        return "cpu_bound";
    case CpBound::DataLoading:
        return "data_loading";
    case CpBound::GpuCompute:
        return "gpu_compute_bound";
    case CpBound::GpuCommunication:
        return "gpu_communication_bound";
    case CpBound::KernelKernelOverhead:
        return "gpu_kernel_kernel_overhead";
    case CpBound::LaunchOverhead:
        return "gpu_kernel_launch_overhead";
    }
    return "";
}

namespace {

// HTA's shorten_name: template and argument lists dropped, the last word kept.
std::string shortened(std::string_view name) {
    if (name.find('<') == std::string_view::npos && name.find('(') == std::string_view::npos)
        return std::string(name);
    std::string stack;
    for (size_t i = 0; i < name.size(); ++i) {
        if (name.compare(i, 2, "->") == 0) {
            ++i;
            continue;
        }
        const char c = name[i];
        const char open = c == '>' ? '<' : c == ')' ? '(' : 0;
        if (!open) {
            stack.push_back(c);
            continue;
        }
        while (!stack.empty() && stack.back() != open) stack.pop_back();
        if (!stack.empty()) stack.pop_back();
    }
    const size_t space = stack.rfind(' ');
    return space == std::string::npos ? stack : stack.substr(space + 1);
}

// HTA's CommunicateKernelGroupingPattern: ^nccl, ^hip, ^hccl, or ncclKernel anywhere.
bool isCommunication(std::string_view name) {
    const std::string s = shortened(name);
    return s.starts_with("nccl") || s.starts_with("hip") || s.starts_with("hccl") ||
           s.find("ncclKernel") != std::string::npos;
}

CpBound boundOf(const Trace& trace, const cp::Events& ev, const cp::GraphEdge& e) {
    switch (e.type) {
    case CpEdgeType::KernelKernelDelay:
        return CpBound::KernelKernelOverhead;
    case CpEdgeType::LaunchDelay:
        return CpBound::LaunchOverhead;
    case CpEdgeType::Dependency:
    case CpEdgeType::Sync:
        return CpBound::None;
    case CpEdgeType::Operator:
        break;
    }
    if (e.attributed == kNone) return CpBound::None;
    const cp::Event& a = ev.events[e.attributed];
    if (!(a.flags & cp::kGpuOp))
        return (a.flags & cp::kDataLoading) ? CpBound::DataLoading : CpBound::Cpu;
    return isCommunication(trace.str(a.name)) ? CpBound::GpuCommunication : CpBound::GpuCompute;
}

// `path`: its nodes; `steps`: the edge from each node to the next.
void fillPath(const Trace& trace, const cp::Events& ev, cp::Builder& b,
              const std::vector<uint32_t>& path, const std::vector<uint32_t>& steps,
              CriticalPath& out) {
    for (uint32_t n : path) {
        const cp::Node& node = b.nodes()[n];
        out.points.push_back(CpPoint{ev.events[node.event].ref, node.ts, node.isStart});
        out.pathEvents.push_back(ev.events[node.event].ref);
    }
    for (size_t i = 0; i + 1 < path.size(); ++i) {
        const cp::GraphEdge& e = b.graph().edge(steps[i]);
        CpPathEdge pe;
        pe.from = uint32_t(i);
        pe.to = uint32_t(i + 1);
        pe.type = e.type;
        pe.weight = e.weight;
        if (e.attributed != kNone) pe.attributed = ev.events[e.attributed].ref;
        pe.bound = boundOf(trace, ev, e);
        out.edges.push_back(pe);
        out.length += std::max<TimeNs>(e.weight, 0);
        out.byBound[size_t(pe.bound)] += e.weight;
        out.boundTotal += e.weight;
    }
    std::sort(out.pathEvents.begin(), out.pathEvents.end());
    out.pathEvents.erase(std::unique(out.pathEvents.begin(), out.pathEvents.end()),
                         out.pathEvents.end());
}

} // namespace

bool criticalPathWindow(const Trace& trace, const std::string& annotation, size_t first,
                        size_t last, HtaConventions hta, TimeRange* window, std::string* error) {
    struct Match {
        TimeNs start, end;
        SliceRef ref;
    };
    std::vector<Match> matches;
    for (TrackId t = 0; t < trace.tracks().size(); ++t) {
        const SliceColumns& s = trace.track(t).slices;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            if (!annotation.empty() &&
                trace.str(s.name[i]).find(annotation) == std::string_view::npos)
                continue;
            matches.push_back(Match{htaStart(s.start[i], hta.microseconds),
                                    htaEnd(s.start[i], s.end(i), hta.microseconds),
                                    {t, i}});
        }
    }
    if (matches.empty()) {
        *error = annotation.empty() ? "the trace has no slice"
                                    : "no slice name contains \"" + annotation + "\"";
        return false;
    }
    if (annotation.empty()) {
        first = 0;
        last = matches.size() - 1;
    }
    std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
        return std::tie(a.start, a.ref) < std::tie(b.start, b.ref);
    });
    if (first >= matches.size() || last < first) {
        *error = "instance " + std::to_string(first) + " of \"" + annotation +
                 "\" does not exist (" + std::to_string(matches.size()) + " match)";
        return false;
    }
    last = std::min(last, matches.size() - 1);
    window->start = std::numeric_limits<TimeNs>::max();
    window->end = std::numeric_limits<TimeNs>::min();
    for (size_t i = first; i <= last; ++i) {
        window->start = std::min(window->start, matches[i].start);
        window->end = std::max(window->end, matches[i].end);
    }
    return true;
}

CriticalPath criticalPath(const Trace& trace, const CriticalPathOptions& options) {
    CriticalPath out;
    // The whole trace is reported as its bounds, never as the open range.
    out.window = isWholeTrace(options.window) ? trace.bounds() : options.window;
    cp::Events ev = cp::collectEvents(trace, options);
    cp::Builder b(trace, ev);
    for (const cp::Event& e : ev.events) out.events += (e.flags & cp::kNodes) ? 1 : 0;
    if (out.events == 0) {
        out.error = "no CPU op, runtime call or GPU op starts in the window";
        return out;
    }
    b.addLockEdges();
    b.addCallStackEdges();
    b.addGpuEdges();
    out.graphNodes = b.graph().nodesInGraph();
    out.graphEdges = b.graph().edges().size();
    for (const cp::GraphEdge& e : b.graph().edges()) ++out.edgesByType[size_t(e.type)];
    out.error = b.validate();
    if (!out.error.empty()) return out;
    std::vector<uint32_t> path, steps;
    if (!b.graph().longestPath(&path, &steps)) {
        out.error = "the graph has a cycle";
        return out;
    }
    if (path.size() < 2) {
        out.error = "the window's events are not connected by any edge";
        return out;
    }
    fillPath(trace, ev, b, path, steps, out);
    out.ok = true;
    return out;
}

} // namespace strata
