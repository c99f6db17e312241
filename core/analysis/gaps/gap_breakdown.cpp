#include "analysis/gaps/gap_breakdown.h"

#include <algorithm>
#include <unordered_map>

namespace strata {

const char* gapPartKindName(GapPartKind k) {
    switch (k) {
    case GapPartKind::Blocked:
        return "blocked";
    case GapPartKind::Launch:
        return "launch";
    case GapPartKind::Cpu:
        return "cpu";
    case GapPartKind::Untraced:
        return "untraced";
    case GapPartKind::Queued:
        return "queued";
    case GapPartKind::Other:
        return "other";
    }
    return "other";
}

const GapPart* GapBreakdown::dominantCpu() const {
    for (const GapPart& p : parts)
        if (p.kind == GapPartKind::Cpu || p.kind == GapPartKind::Untraced) return &p;
    return nullptr;
}

namespace {

struct PartKey {
    GapPartKind kind;
    StringId name, context;
    friend bool operator==(const PartKey&, const PartKey&) = default;
};
struct PartKeyHash {
    size_t operator()(const PartKey& k) const noexcept {
        return std::hash<uint64_t>()((uint64_t(k.name) << 32 | k.context) * 8 + uint64_t(k.kind));
    }
};

// One open slice of the sweep: where it ends (clamped to its parent's end, so the stack stays
// nested on any input), its roles, and the levels of the nearest recognised frame at or above
// it and of the outermost input-pipeline span at or above it (-1: none).
struct Open {
    SliceIndex index;
    TimeNs end;
    uint8_t roles;
    int32_t recognised, pipeline;
};

class Sweep {
public:
    Sweep(const Trace& t, FrameRoles& roles, TrackId track, GapBreakdown& out)
        : c_(t.track(track).slices), roles_(roles), track_(track), out_(out) {}

    // Every instant of [from, to) on the track, attributed to the deepest slice open there.
    void run(TimeNs from, TimeNs to) {
        openAt(from);
        TimeNs cur = from;
        const auto& st = c_.start;
        auto k = SliceIndex(std::upper_bound(st.begin(), st.end(), from) - st.begin());
        for (; k < c_.size() && st[k] < to; ++k) {
            if (c_.dur[k] <= 0) continue;
            cur = closeBefore(cur, st[k]);
            attribute(cur, st[k]);
            cur = st[k];
            push(k);
        }
        cur = closeBefore(cur, to);
        attribute(cur, to);
    }

    void finish(std::unordered_map<PartKey, TimeNs, PartKeyHash>& parts) {
        parts.swap(parts_);
        TimeNs most = 0;
        for (const auto& [i, time] : blocked_)
            if (time > most) most = time, out_.blockingCall = {track_, i};
    }

private:
    // The slices open at `t`: the last slice starting at or before it, or its ancestors.
    void openAt(TimeNs t) {
        const auto& st = c_.start;
        auto it = std::upper_bound(st.begin(), st.end(), t);
        std::vector<SliceIndex> chain;
        for (SliceIndex i = it == st.begin() ? kNoSlice : SliceIndex(it - st.begin() - 1);
             i != kNoSlice; i = c_.parent[i])
            if (c_.end(i) > t) chain.push_back(i);
        for (auto i = chain.rbegin(); i != chain.rend(); ++i) push(*i);
    }

    void push(SliceIndex i) {
        const int32_t level = int32_t(stack_.size());
        Open o{i, c_.end(i), roles_.of(c_, i), -1, -1};
        if (!stack_.empty()) {
            const Open& p = stack_.back();
            o.end = std::min(o.end, p.end);
            o.recognised = p.recognised;
            o.pipeline = p.pipeline;
        }
        if (o.roles & FrameRoles::kRecognised) o.recognised = level;
        if (o.pipeline < 0 && (o.roles & FrameRoles::kInputPipeline)) o.pipeline = level;
        stack_.push_back(o);
    }

    // Closes the slices that end by `t`, attributing their last stretch; returns the time
    // attributed up to.
    TimeNs closeBefore(TimeNs cur, TimeNs t) {
        while (!stack_.empty() && stack_.back().end <= t) {
            attribute(cur, stack_.back().end);
            cur = std::max(cur, stack_.back().end);
            stack_.pop_back();
        }
        return cur;
    }

    void attribute(TimeNs from, TimeNs to) {
        if (to <= from) return;
        const TimeNs len = to - from;
        if (stack_.empty()) {
            add({GapPartKind::Untraced, kNoName, kNoName}, len);
            return;
        }
        const Open& top = stack_.back();
        const int32_t above = stack_.size() > 1 ? stack_[stack_.size() - 2].recognised : -1;
        const StringId context = above >= 0 ? c_.name[stack_[size_t(above)].index] : kNoName;
        const StringId name = c_.name[top.index];
        GapPartKind kind = GapPartKind::Cpu;
        if (top.roles & FrameRoles::kBlocking) {
            kind = GapPartKind::Blocked;
            blocked_[top.index] += len;
        } else if (top.roles & FrameRoles::kApiCall) {
            kind = GapPartKind::Launch;
        } else if (top.roles & FrameRoles::kAnnotation) {
            kind = GapPartKind::Untraced;
        }
        add({kind, name, context}, len);
        if (top.pipeline >= 0) {
            out_.inputPipeline += len;
            if (out_.inputSpan == kNoName)
                out_.inputSpan = c_.name[stack_[size_t(top.pipeline)].index];
        }
    }

    void add(const PartKey& k, TimeNs len) {
        parts_[k] += len;
        out_.byKind[size_t(k.kind)] += len;
    }

    const SliceColumns& c_;
    FrameRoles& roles_;
    TrackId track_;
    GapBreakdown& out_;
    std::vector<Open> stack_;
    std::unordered_map<PartKey, TimeNs, PartKeyHash> parts_;
    std::unordered_map<SliceIndex, TimeNs> blocked_;
};

// The parts by time, longest first; past kMaxParts the smallest gathered into one Other.
std::vector<GapPart> listParts(const std::unordered_map<PartKey, TimeNs, PartKeyHash>& byKey) {
    std::vector<GapPart> parts;
    parts.reserve(byKey.size());
    for (const auto& [k, time] : byKey) parts.push_back({k.kind, k.name, k.context, time, 1});
    std::sort(parts.begin(), parts.end(), [](const GapPart& a, const GapPart& b) {
        if (a.time != b.time) return a.time > b.time;
        if (a.kind != b.kind) return a.kind < b.kind;
        return a.name != b.name ? a.name < b.name : a.context < b.context;
    });
    if (parts.size() > GapBreakdown::kMaxParts) {
        GapPart other{GapPartKind::Other, kNoName, kNoName, 0, 0};
        for (size_t i = GapBreakdown::kMaxParts - 1; i < parts.size(); ++i) {
            other.time += parts[i].time;
            ++other.gathered;
        }
        parts.resize(GapBreakdown::kMaxParts - 1);
        parts.push_back(other);
    }
    return parts;
}

} // namespace

GapBreakdown breakDownGap(const Trace& t, FrameRoles& roles, SliceRef launch, TimeNs start,
                          TimeNs end) {
    GapBreakdown b;
    if (!launch.valid() || end <= start) return b;
    b.known = true;
    const TimeNs returned = std::clamp(t.start(launch) + t.duration(launch), start, end);
    std::unordered_map<PartKey, TimeNs, PartKeyHash> parts;
    if (returned > start) {
        Sweep sweep(t, roles, launch.track, b);
        sweep.run(start, returned);
        sweep.finish(parts);
    }
    if (end > returned) {
        parts[{GapPartKind::Queued, kNoName, kNoName}] += end - returned;
        b.byKind[size_t(GapPartKind::Queued)] += end - returned;
    }
    b.parts = listParts(parts);
    return b;
}

} // namespace strata
