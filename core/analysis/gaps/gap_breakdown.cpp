#include "analysis/gaps/gap_breakdown.h"

#include "analysis/gaps/gap_context.h"
#include "analysis/gaps/host_waits.h"

#include <algorithm>
#include <map>
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
    bool warmUp = false;
    friend bool operator==(const PartKey&, const PartKey&) = default;
};
struct PartKeyHash {
    size_t operator()(const PartKey& k) const noexcept {
        return std::hash<uint64_t>()(
            ((uint64_t(k.name) << 32 | k.context) * 8 + uint64_t(k.kind)) * 2 + k.warmUp);
    }
};
using PartMap = std::unordered_map<PartKey, TimeNs, PartKeyHash>;

// One stretch of the gap on one lane, attributed to the innermost slice open there (`top`,
// invalid where nothing is open), which started at `topStart`.
struct Stretch {
    TimeNs from, to, topStart;
    SliceRef top;
    PartKey key;
    StringId pipelineSpan; // kNoName: not under a DataLoader span
};

// One open slice of the sweep: where it ends (clamped to its parent's end, so the stack stays
// nested on any input), its roles and kind, and the levels of the nearest recognised frame at or
// above it and of the outermost input-pipeline span at or above it (-1: none).
struct Open {
    SliceIndex index;
    TimeNs end;
    uint8_t roles;
    GapPartKind kind;
    bool warmUp;
    int32_t recognised, pipeline;
};

// One lane's stretches over [from, to), in time order, covering it.
class LaneSweep {
public:
    LaneSweep(GapContext& cx, TrackId track, std::vector<Stretch>& out)
        : cx_(cx), c_(cx.trace.track(track).slices), track_(track), out_(out) {}

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
        Open o{i, c_.end(i), cx_.roles.of(c_, i), GapPartKind::Cpu, false, -1, -1};
        if (!stack_.empty()) {
            const Open& p = stack_.back();
            o.end = std::min(o.end, p.end);
            o.recognised = p.recognised;
            o.pipeline = p.pipeline;
        }
        if (o.roles & FrameRoles::kRecognised) o.recognised = level;
        if (o.pipeline < 0 && (o.roles & FrameRoles::kInputPipeline)) o.pipeline = level;
        const SliceRef ref{track_, i};
        if (o.roles & FrameRoles::kBlocking) {
            o.kind = GapPartKind::Blocked;
        } else if (o.roles & FrameRoles::kApiCall) {
            // A pageable copy blocks like a synchronous one; a first launch loads a module.
            o.kind =
                isPageableCopyCall(cx_.trace, ref) ? GapPartKind::Blocked : GapPartKind::Launch;
            o.warmUp = o.kind == GapPartKind::Launch && cx_.firstLaunches.isWarmUp(ref);
        } else if (o.roles & FrameRoles::kAnnotation) {
            o.kind = GapPartKind::Untraced;
        }
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
        if (stack_.empty()) {
            out_.push_back({from,
                            to,
                            INT64_MIN,
                            {},
                            {GapPartKind::Untraced, kNoName, kNoName, false},
                            kNoName});
            return;
        }
        const Open& top = stack_.back();
        const int32_t above = stack_.size() > 1 ? stack_[stack_.size() - 2].recognised : -1;
        const StringId context = above >= 0 ? c_.name[stack_[size_t(above)].index] : kNoName;
        const StringId span =
            top.pipeline >= 0 ? c_.name[stack_[size_t(top.pipeline)].index] : kNoName;
        out_.push_back({from,
                        to,
                        c_.start[top.index],
                        SliceRef{track_, top.index},
                        {top.kind, c_.name[top.index], context, top.warmUp},
                        span});
    }

    GapContext& cx_;
    const SliceColumns& c_;
    TrackId track_;
    std::vector<Stretch>& out_;
    std::vector<Open> stack_;
};

// The stretches of every lane of the thread added up: per instant the one whose slice started
// last (the innermost), the main lane's on a tie.
class Tally {
public:
    explicit Tally(GapBreakdown& out) : out_(out) {}

    void add(const Stretch& s, TimeNs from, TimeNs to) {
        if (to <= from) return;
        const TimeNs len = to - from;
        parts_[s.key] += len;
        out_.byKind[size_t(s.key.kind)] += len;
        if (s.key.kind == GapPartKind::Blocked && s.top.valid())
            blocked_[uint64_t(s.top.track) << 32 | s.top.index] += len;
        if (s.key.warmUp) out_.warmUp += len;
        if (s.pipelineSpan != kNoName) {
            out_.inputPipeline += len;
            if (out_.inputSpan == kNoName) out_.inputSpan = s.pipelineSpan;
        }
    }

    void merge(const std::vector<std::vector<Stretch>>& lanes) {
        if (lanes.size() == 1) {
            for (const Stretch& s : lanes[0]) add(s, s.from, s.to);
            return;
        }
        std::vector<size_t> at(lanes.size(), 0);
        TimeNs cur = lanes[0].empty() ? 0 : lanes[0].front().from;
        const TimeNs end = lanes[0].empty() ? 0 : lanes[0].back().to;
        while (cur < end) {
            const Stretch* best = nullptr;
            TimeNs next = end;
            for (size_t l = 0; l < lanes.size(); ++l) {
                while (at[l] < lanes[l].size() && lanes[l][at[l]].to <= cur) ++at[l];
                if (at[l] == lanes[l].size() || lanes[l][at[l]].from > cur) continue;
                const Stretch& s = lanes[l][at[l]];
                next = std::min(next, s.to);
                if (!best || s.topStart > best->topStart) best = &s;
            }
            if (!best) break; // the main lane covers the whole stretch: not reached
            add(*best, cur, next);
            cur = next;
        }
    }

    void finish(PartMap& parts) {
        parts.swap(parts_);
        TimeNs most = 0;
        for (const auto& [key, time] : blocked_)
            if (time > most)
                most = time,
                out_.blockingCall = {TrackId(key >> 32), SliceIndex(key & 0xffffffffu)};
    }

private:
    GapBreakdown& out_;
    PartMap parts_;
    std::map<uint64_t, TimeNs> blocked_; // (track, slice) -> time
};

// The parts by time, longest first; past kMaxParts the smallest gathered into one Other.
std::vector<GapPart> listParts(const PartMap& byKey) {
    std::vector<GapPart> parts;
    parts.reserve(byKey.size());
    for (const auto& [k, time] : byKey)
        parts.push_back({k.kind, k.name, k.context, time, 1, k.warmUp});
    std::sort(parts.begin(), parts.end(), [](const GapPart& a, const GapPart& b) {
        if (a.time != b.time) return a.time > b.time;
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.name != b.name) return a.name < b.name;
        return a.context != b.context ? a.context < b.context : a.warmUp < b.warmUp;
    });
    if (parts.size() > GapBreakdown::kMaxParts) {
        GapPart other{GapPartKind::Other, kNoName, kNoName, 0, 0, false};
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

GapBreakdown breakDownGap(GapContext& cx, SliceRef launch, TimeNs start, TimeNs end) {
    GapBreakdown b;
    if (!launch.valid() || end <= start) return b;
    b.known = true;
    const Trace& t = cx.trace;
    const TimeNs returned = std::clamp(t.start(launch) + t.duration(launch), start, end);
    PartMap parts;
    if (returned > start) {
        const std::vector<TrackId> tracks = cx.lanesOf(launch.track);
        std::vector<std::vector<Stretch>> lanes(tracks.size());
        for (size_t l = 0; l < tracks.size(); ++l)
            LaneSweep(cx, tracks[l], lanes[l]).run(start, returned);
        Tally tally(b);
        tally.merge(lanes);
        tally.finish(parts);
    }
    if (end > returned) {
        parts[{GapPartKind::Queued, kNoName, kNoName, false}] += end - returned;
        b.byKind[size_t(GapPartKind::Queued)] += end - returned;
    }
    b.parts = listParts(parts);
    return b;
}

} // namespace strata
