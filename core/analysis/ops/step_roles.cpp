#include "analysis/ops/step_roles.h"

#include "analysis/intervals.h"
#include "analysis/trace_steps.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <unordered_set>

namespace strata {

namespace {

constexpr int kRoles = kStepRoleCount - 1; // every role but "other"

// The plugin's collectives by name (NcclOpNameSet, GlooOpNameSet).
bool isCollectiveOp(std::string_view n) {
    for (std::string_view lib : {"nccl:", "gloo:"}) {
        if (n.substr(0, lib.size()) != lib) continue;
        const std::string_view op = n.substr(lib.size());
        for (std::string_view c :
             {"broadcast", "reduce", "all_reduce", "all_gather", "reduce_scatter"})
            if (op == c) return true;
    }
    return false;
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The plugin's data loading spans (CPU ops and user annotations only).
bool isDataLoading(std::string_view n) {
    return (n.substr(0, 22) == "enumerate(DataLoader)#" && endsWith(n, ".__next__")) ||
           n.substr(0, 20) == "enumerate(DataPipe)#";
}

// What the plugin takes a slice for, by its category (EventTypeMap, lower-cased) where the
// trace has one, else by its kind (a Strata recording's kernels, copies and sets).
enum class PluginType : uint8_t { None, Device, Runtime, Operator, Annotation };

PluginType categoryType(std::string_view category) {
    std::string c(category);
    for (char& ch : c) ch = char(std::tolower(uint8_t(ch)));
    for (std::string_view r : {"runtime", "cuda_runtime", "mtia_runtime", "glow_runtime",
                               "xpu_runtime", "privateuse1_runtime"})
        if (c == r) return PluginType::Runtime;
    if (c == "cpu_op" || c == "operator" || c == "python") return PluginType::Operator;
    if (c == "user_annotation" || c == "gpu_user_annotation") return PluginType::Annotation;
    return PluginType::None;
}

// Each category's type found once (a trace has few categories and many slices).
class PluginTypes {
public:
    explicit PluginTypes(const Trace& t) : t_(t), byCategory_(t.strings().size(), kUnknown) {}
    PluginType operator()(StringId category, SliceKind kind) {
        if (kind == SliceKind::Kernel || kind == SliceKind::Memcpy || kind == SliceKind::Memset)
            return PluginType::Device;
        uint8_t& known = byCategory_[category];
        if (known == kUnknown) known = uint8_t(categoryType(t_.str(category)));
        return PluginType(known);
    }

private:
    static constexpr uint8_t kUnknown = 0xff;
    const Trace& t_;
    std::vector<uint8_t> byCategory_;
};

bool isPluginStep(std::string_view name, const std::string& stepPrefix) {
    return name.substr(0, 13) == "ProfilerStep#" || isStepName(name, stepPrefix);
}

// Whether an operator or annotation bounds the CPU side's extent (the one step of a trace with no
// steps): steps, and operators that are no data loading span.
bool inCpuExtent(PluginType type, std::string_view name, const std::string& stepPrefix) {
    if (type != PluginType::Operator && type != PluginType::Annotation) return false;
    if (isPluginStep(name, stepPrefix)) return true;
    return type == PluginType::Operator && !isDataLoading(name);
}

// Every slice's role (or none).
struct RoleRanges {
    std::array<Intervals, kRoles> role;
};

// The External ids of the CPU ops named as collectives: the plugin's communication kernels are
// those that share one (CommunicationNode), whatever their names.
std::unordered_set<int64_t> collectiveIds(const Trace& trace, PluginTypes& pluginType) {
    std::unordered_set<int64_t> ids;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const SliceColumns& c = trace.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (pluginType(c.category[i], c.kind[i]) == PluginType::Operator &&
                isCollectiveOp(trace.str(c.name[i])))
                if (const int64_t id = trace.externalId({ti, i}); id >= 0) ids.insert(id);
    }
    return ids;
}

RoleRanges roleRanges(const Trace& trace, const std::string& stepPrefix) {
    RoleRanges r;
    PluginTypes pluginType(trace);
    const std::unordered_set<int64_t> collectives = collectiveIds(trace, pluginType);
    auto add = [&](StepRole role, TimeNs s, TimeNs e) { r.role[size_t(role)].push_back({s, e}); };
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const SliceColumns& c = trace.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            const TimeNs s = c.start[i], e = c.end(i);
            const SliceKind kind = c.kind[i];
            const std::string_view name = trace.str(c.name[i]);
            const PluginType type = pluginType(c.category[i], kind);
            switch (type) {
            case PluginType::Device:
                add(kind == SliceKind::Memcpy   ? StepRole::Memcpy
                    : kind == SliceKind::Memset ? StepRole::Memset
                    : !collectives.empty() && collectives.count(trace.externalId({ti, i}))
                        ? StepRole::Communication
                        : StepRole::Kernel,
                    s, e);
                break;
            case PluginType::Runtime:
                add(StepRole::Runtime, s, e);
                break;
            case PluginType::Operator:
            case PluginType::Annotation:
                if (isPluginStep(name, stepPrefix)) break;
                if (isDataLoading(name)) {
                    add(StepRole::DataLoading, s, e);
                    break;
                }
                add(isCollectiveOp(name) ? StepRole::Communication : StepRole::CpuOp, s, e);
                break;
            case PluginType::None:
                break;
            }
        }
    }
    for (Intervals& v : r.role) v = unionOf(std::move(v));
    return r;
}

struct DeviceSpan {
    TimeNs first = std::numeric_limits<TimeNs>::max();
    TimeNs last = std::numeric_limits<TimeNs>::min();
    size_t ops = 0;
};

// The plugin's steps stretched to their device work (see the header); `leftOut` the trailing
// steps dropped.
std::vector<TraceStep> deviceSteps(const Trace& trace, std::vector<TraceStep> steps,
                                   size_t* leftOut) {
    // Per step, the GPU ops of the runtime calls wholly inside it.
    std::vector<DeviceSpan> dev(steps.size());
    PluginTypes pluginType(trace);
    std::vector<std::vector<uint8_t>> matched(trace.tracks().size());
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti)
        matched[ti].assign(trace.track(ti).slices.size(), 0);
    bool any = false;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const SliceColumns& c = trace.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (pluginType(c.category[i], c.kind[i]) != PluginType::Runtime) continue;
            const TimeNs s = c.start[i], e = c.end(i);
            auto it = std::upper_bound(steps.begin(), steps.end(), s,
                                       [](TimeNs v, const TraceStep& st) { return v < st.start; });
            if (it == steps.begin()) continue;
            --it;
            if (e > it->end) continue; // not wholly inside (or after it)
            DeviceSpan& d = dev[size_t(it - steps.begin())];
            for (SliceRef op : trace.gpuOpsOf({ti, i})) {
                const SliceKind k = trace.kind(op);
                if (k != SliceKind::Kernel && k != SliceKind::Memcpy && k != SliceKind::Memset)
                    continue;
                d.first = std::min(d.first, trace.start(op));
                d.last = std::max(d.last, trace.start(op) + trace.duration(op));
                ++d.ops;
                matched[op.track][op.index] = 1;
                any = true;
            }
        }
    }
    if (!any) return steps;
    // The first step starts no earlier than the end of GPU work no step launched that ended
    // before the first step's device work began.
    TimeNs prevEnd = steps.front().start;
    if (dev.front().ops)
        for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
            const SliceColumns& c = trace.track(ti).slices;
            for (SliceIndex i = 0; i < c.size(); ++i)
                if (pluginType(c.category[i], c.kind[i]) == PluginType::Device && !matched[ti][i] &&
                    c.end(i) < dev.front().first)
                    prevEnd = std::max(prevEnd, c.end(i));
        }
    for (size_t k = 0; k < steps.size(); ++k) {
        const TimeNs start = std::max(prevEnd, steps[k].start);
        TimeNs end = std::max(steps[k].end, dev[k].ops ? dev[k].last : start);
        end = std::max(end, start);
        steps[k].start = start;
        steps[k].end = end;
        prevEnd = end;
    }
    // Trailing steps with no device work, or with under 80 % of the one before, left out.
    if (steps.size() > 1) {
        long last = long(steps.size()) - 1;
        while (last >= 0 && dev[size_t(last)].ops == 0) --last;
        if (last >= 0) {
            size_t keep = size_t(last) + 1;
            if (last > 0 && double(dev[size_t(last) - 1].ops) * 0.8 > double(dev[size_t(last)].ops))
                keep = size_t(last);
            *leftOut = steps.size() - keep;
            steps.resize(keep);
        }
    }
    return steps;
}

} // namespace

const char* stepRoleName(StepRole r) {
    static const char* const names[] = {"kernel",  "memcpy",       "memset", "communication",
                                        "runtime", "data_loading", "cpu_op", "other"};
    return names[size_t(r)];
}

TimeRange TensorBoardSteps::span() const {
    return steps.empty() ? TimeRange{0, 0} : TimeRange{steps.front().start, steps.back().end};
}

TensorBoardSteps tensorBoardSteps(const Trace& trace, const std::string& stepPrefix) {
    TensorBoardSteps out;
    out.steps = findSteps(trace, stepPrefix);
    if (!out.steps.empty()) {
        out.steps = deviceSteps(trace, std::move(out.steps), &out.tailLeftOut);
        return out;
    }
    // No step: one, "0", over the CPU ops; none when there is no CPU op.
    PluginTypes pluginType(trace);
    TimeNs first = std::numeric_limits<TimeNs>::max();
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const Track& track : trace.tracks()) {
        const SliceColumns& c = track.slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (inCpuExtent(pluginType(c.category[i], c.kind[i]), trace.str(c.name[i]),
                            stepPrefix)) {
                first = std::min(first, c.start[i]);
                last = std::max(last, c.end(i));
            }
    }
    if (first <= last) out.steps.push_back({"0", first, last, {}});
    return out;
}

StepRoles stepRoles(const Trace& trace, const TensorBoardSteps& plugin,
                    const std::string& stepPrefix) {
    StepRoles out;
    out.tailStepsLeftOut = plugin.tailLeftOut;
    const std::vector<TraceStep>& steps = plugin.steps;
    if (steps.empty()) return out;
    const RoleRanges ranges = roleRanges(trace, stepPrefix);
    // Each role takes what the roles before it left of the steps.
    Intervals slots;
    for (const TraceStep& s : steps) slots.push_back({s.start, s.end});
    slots = unionOf(std::move(slots));
    std::array<Intervals, kRoles> owned;
    for (int r = 0; r < kRoles; ++r) {
        owned[size_t(r)] = intersect(slots, ranges.role[size_t(r)]);
        slots = minus(slots, owned[size_t(r)]);
    }
    const bool kernels = !ranges.role[size_t(StepRole::Kernel)].empty();
    const Intervals& compute = ranges.role[size_t(kernels ? StepRole::Kernel : StepRole::CpuOp)];
    const Intervals& comm = ranges.role[size_t(StepRole::Communication)];
    const Intervals both = intersect(compute, comm);
    for (const TraceStep& s : steps) {
        StepRoleTimes t;
        t.name = s.name;
        t.start = s.start;
        t.end = s.end;
        TimeNs known = 0;
        for (int r = 0; r < kRoles; ++r) {
            t.role[size_t(r)] = lengthWithin(owned[size_t(r)], s.start, s.end);
            known += t.role[size_t(r)];
        }
        t.role[size_t(StepRole::Other)] = t.duration() - known;
        t.computation = lengthWithin(compute, s.start, s.end);
        t.communication = lengthWithin(comm, s.start, s.end);
        t.overlap = lengthWithin(both, s.start, s.end);
        t.otherThanBoth = t.duration() + t.overlap - t.computation - t.communication;
        out.steps.push_back(std::move(t));
    }
    return out;
}

} // namespace strata
