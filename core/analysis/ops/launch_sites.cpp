#include "analysis/ops/launch_sites.h"

#include "analysis/frame_roles.h"

#include <algorithm>
#include <limits>
#include <map>

namespace strata {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// The position of "(LINE): " in a source frame's name, or npos.
size_t lineParen(std::string_view n) {
    const size_t close = n.find("): ");
    if (close == std::string_view::npos || close == 0) return std::string_view::npos;
    size_t open = close;
    while (open > 0 && isDigit(n[open - 1])) --open;
    if (open == close || open == 0 || n[open - 1] != '(') return std::string_view::npos;
    return open - 1;
}

// The thread tracks (lanes) of each (pid, tid).
using Lanes = std::map<std::pair<int64_t, int64_t>, std::vector<TrackId>>;

Lanes lanesOf(const Trace& t, const Track* only) {
    Lanes lanes;
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind != TrackKind::Thread) continue;
        if (only && (tr.pid != only->pid || tr.tid != only->tid)) continue;
        lanes[{tr.pid, tr.tid}].push_back(ti);
    }
    return lanes;
}

// Finds call sites on one trace: the thread's lanes, and whether each name is a user frame
// (decided once per name).
class SiteFinder {
public:
    SiteFinder(const Trace& t, Lanes lanes)
        : t_(t), lanes_(std::move(lanes)), user_(t.strings().size(), -1) {}

    SliceRef frameOf(SliceRef r) {
        candidates_.clear();
        const Track& own = t_.track(r.track);
        const SliceColumns& c = own.slices;
        for (SliceIndex p = c.parent[r.index]; p != kNoSlice; p = c.parent[p])
            if (c.kind[p] == SliceKind::PythonFunction) candidates_.push_back({r.track, p});
        const auto it = lanes_.find({own.pid, own.tid});
        if (it != lanes_.end())
            for (TrackId lane : it->second)
                if (lane != r.track) addEnclosing(lane, c.start[r.index], c.end(r.index));
        if (candidates_.empty()) return {};
        // Outermost first: by start, the longer first on a tie.
        std::stable_sort(candidates_.begin(), candidates_.end(), [&](SliceRef a, SliceRef b) {
            const TimeNs sa = t_.start(a), sb = t_.start(b);
            if (sa != sb) return sa < sb;
            return t_.duration(a) > t_.duration(b);
        });
        for (auto k = candidates_.rbegin(); k != candidates_.rend(); ++k)
            if (isUser(t_.track(k->track).slices.name[k->index])) return *k;
        return candidates_.back();
    }

private:
    // The python_function slices of another lane that enclose [s, e): the last slice starting at
    // or before s and its ancestors are the only ones that can (slices nest on a lane).
    void addEnclosing(TrackId lane, TimeNs s, TimeNs e) {
        const SliceColumns& c = t_.track(lane).slices;
        const auto at = std::upper_bound(c.start.begin(), c.start.end(), s);
        if (at == c.start.begin()) return;
        for (SliceIndex i = SliceIndex(at - c.start.begin()) - 1; i != kNoSlice; i = c.parent[i])
            if (c.kind[i] == SliceKind::PythonFunction && c.end(i) >= e)
                candidates_.push_back({lane, i});
    }

    bool isUser(StringId name) {
        int8_t& u = user_[name];
        if (u < 0) u = isUserPythonFrame(t_.str(name)) ? 1 : 0;
        return u == 1;
    }

    const Trace& t_;
    Lanes lanes_;
    std::vector<int8_t> user_;
    std::vector<SliceRef> candidates_;
};

} // namespace

namespace {

// The longest a thread can be held between a call's enter callback (where its stack is taken)
// and the call's own start: the collector's writer lock, a busy machine's scheduler.
constexpr TimeNs kEnterLagMax = 100'000'000;

// A stack's innermost user frame, else its innermost.
StringId siteFrame(const Trace& trace, CallsiteId innermost) {
    const StackSamples& k = trace.stackSamples();
    for (CallsiteId c = innermost; c != kNoCallsite; c = k.callsiteParent[c])
        if (isUserPythonFrame(trace.str(k.callsiteFrame[c]))) return k.callsiteFrame[c];
    return k.callsiteFrame[innermost];
}

} // namespace

StringId sampledCallFrame(const Trace& trace, const Track& thread, TimeNs start, TimeNs end,
                          TimeNs notBefore, TimeNs window) {
    const StackSamples& k = trace.stackSamples();
    const SampleThread* th = k.thread(thread.pid, thread.tid);
    if (!th) return 0;
    const auto first = k.ts.begin() + th->first, last = first + th->count;
    // The stack taken as the call began (its enter callback, before the call's own start): the
    // last one at or before its end, taken after `notBefore`.
    for (auto at = std::upper_bound(first, last, end); at != first;) {
        --at;
        if (*at < notBefore) break;
        const size_t r = size_t(at - k.ts.begin());
        if (k.kind[r] == uint8_t(StackKind::ApiCall) && k.callsite[r] != kNoCallsite)
            return siteFrame(trace, k.callsite[r]);
    }
    // Else the thread's Python sample nearest the call's start, within `window`.
    size_t best = SIZE_MAX;
    TimeNs bestGap = window + 1;
    const auto near = std::lower_bound(first, last, start - window);
    for (auto at = near; at != last && *at <= start + window; ++at) {
        const size_t r = size_t(at - k.ts.begin());
        const TimeNs gap = *at > start ? *at - start : start - *at;
        if (k.kind[r] == uint8_t(StackKind::Python) && k.callsite[r] != kNoCallsite &&
            gap < bestGap)
            best = r, bestGap = gap;
    }
    return best == SIZE_MAX ? 0 : siteFrame(trace, k.callsite[best]);
}

std::string callSiteText(std::string_view n) {
    if (const size_t open = lineParen(n); open != std::string_view::npos) {
        const size_t close = n.find("): ", open);
        std::string out(n.substr(0, open));
        out += ':';
        out += n.substr(open + 1, close - open - 1);
        out += ' ';
        out += n.substr(close + 3);
        return out;
    }
    // A C function of one object: the object's address says nothing about the site.
    if (n.starts_with("<built-in") && n.ends_with(">")) {
        const size_t at = n.rfind(" at 0x");
        if (at != std::string_view::npos) {
            const std::string_view hex = n.substr(at + 6, n.size() - 1 - (at + 6));
            if (!hex.empty() && std::all_of(hex.begin(), hex.end(), [](char c) {
                    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
                }))
                return std::string(n.substr(0, at)) + ">";
        }
    }
    return std::string(n);
}

bool isPythonSourceFrame(std::string_view n) {
    return lineParen(n) != std::string_view::npos;
}

bool isUserPythonFrame(std::string_view n) {
    return isPythonSourceFrame(n) && !isLibraryPythonFrame(n);
}

SliceRef pythonCallSiteFrame(const Trace& trace, SliceRef slice) {
    if (!slice.valid() || slice.track >= trace.tracks().size()) return {};
    const Track& tr = trace.track(slice.track);
    if (tr.kind != TrackKind::Thread || slice.index >= tr.slices.size()) return {};
    SiteFinder finder(trace, lanesOf(trace, &tr));
    return finder.frameOf(slice);
}

SliceRef pythonCallSiteOf(const Trace& trace, SliceRef slice) {
    if (!slice.valid() || slice.track >= trace.tracks().size()) return {};
    if (trace.track(slice.track).kind == TrackKind::GpuStream) {
        const SliceRef launch = trace.launchOf(slice);
        return launch.valid() ? pythonCallSiteFrame(trace, launch) : SliceRef{};
    }
    return pythonCallSiteFrame(trace, slice);
}

uint32_t LaunchSites::siteOf(SliceRef call) const {
    if (!call.valid() || call.track >= perTrack_.size()) return kNone;
    const auto& v = perTrack_[call.track];
    const auto at = std::lower_bound(v.begin(), v.end(), call.index,
                                     [](const auto& e, SliceIndex i) { return e.first < i; });
    return at != v.end() && at->first == call.index ? at->second : kNone;
}

uint32_t LaunchSites::siteOfOp(const Trace& trace, SliceRef op) const {
    if (!op.valid() || op.track >= trace.tracks().size()) return kNone;
    if (trace.track(op.track).kind != TrackKind::GpuStream) return siteOf(op);
    return siteOf(trace.launchOf(op));
}

LaunchSites findLaunchSites(const Trace& trace) {
    LaunchSites out;
    out.perTrack_.resize(trace.tracks().size());
    SiteFinder finder(trace, lanesOf(trace, nullptr));
    const TimeNs window = trace.stackSamples().medianInterval(); // one sampling period
    std::unordered_map<StringId, uint32_t> siteOfName;           // frame name -> site
    std::unordered_map<std::string, uint32_t> siteOfText;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& tr = trace.track(ti);
        if (tr.kind != TrackKind::Thread) continue;
        const SliceColumns& c = tr.slices;
        // The ends of the calls still open at the current one (they nest on a lane) and the
        // latest end of those closed before it: a stack taken before that is an earlier call's.
        std::vector<TimeNs> open;
        TimeNs closed = std::numeric_limits<TimeNs>::min();
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (!isLaunchApiKind(c.kind[i])) continue;
            for (; !open.empty() && open.back() <= c.start[i]; open.pop_back())
                closed = std::max(closed, open.back());
            open.push_back(c.end(i));
            const SliceRef frame = finder.frameOf({ti, i});
            const TimeNs notBefore = std::max(closed, c.start[i] - kEnterLagMax);
            const StringId name = frame.valid() ? trace.track(frame.track).slices.name[frame.index]
                                                : sampledCallFrame(trace, tr, c.start[i], c.end(i),
                                                                   notBefore, window);
            if (!name) {
                ++out.callsWithoutSite_;
                continue;
            }
            auto [at, fresh] = siteOfName.try_emplace(name, 0);
            if (fresh) {
                auto [t, added] =
                    siteOfText.try_emplace(callSiteText(trace.str(name)), out.texts_.size());
                if (added) out.texts_.push_back(t->first);
                at->second = t->second;
            }
            out.perTrack_[ti].emplace_back(i, at->second); // in index order
            ++out.callsWithSite_;
        }
    }
    return out;
}

} // namespace strata
