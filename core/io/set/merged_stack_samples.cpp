#include "io/set/merged_stack_samples.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <numeric>
#include <type_traits>

namespace strata {
namespace {

struct From {
    int64_t pid, tid;
    const StackSamples* in;
    const SampleThread* thread;
    CallsiteId base;
    TimeNs offset;
};

// Rows [t.first, t.end()) of the columns put back in time order (two runs of one thread).
void sortThread(StackSamples& k, const SampleThread& t) {
    std::vector<uint64_t> order(t.count);
    std::iota(order.begin(), order.end(), t.first);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint64_t a, uint64_t b) { return k.ts[a] < k.ts[b]; });
    const auto permute = [&](auto& column) {
        std::vector<std::decay_t<decltype(column[0])>> sorted;
        sorted.reserve(order.size());
        for (const uint64_t r : order) sorted.push_back(column[r]);
        std::copy(sorted.begin(), sorted.end(), column.begin() + std::ptrdiff_t(t.first));
    };
    permute(k.ts), permute(k.callsite), permute(k.kind);
}

} // namespace

MergedStackSamples mergeStackSamples(const std::vector<StackSamplesPart>& parts) {
    MergedStackSamples out;
    StackSamples& k = out.samples;
    std::vector<From> from;
    for (const StackSamplesPart& p : parts) {
        const StackSamples& in = p.trace->stackSamples();
        const auto base = CallsiteId(k.callsiteParent.size() - 1);
        for (size_t c = 1; c < in.callsiteParent.size(); ++c) {
            k.callsiteParent.push_back(in.callsiteParent[c] ? in.callsiteParent[c] + base : 0);
            k.callsiteFrame.push_back((*p.stringOf)[in.callsiteFrame[c]]);
        }
        if (in.threads.empty()) continue;
        std::map<std::pair<int64_t, int64_t>, TrackId> mainLane;
        for (TrackId i = 0; i < p.trace->tracks().size(); ++i)
            if (const Track& t = p.trace->track(i); t.kind == TrackKind::Thread && t.lane == 0)
                mainLane.emplace(std::pair{t.pid, t.tid}, i);
        for (const SampleThread& th : in.threads) {
            const auto it = mainLane.find({th.pid, th.tid});
            if (it == mainLane.end()) {
                out.left += th.count;
                continue;
            }
            const auto [pid, tid] = p.mergedIds(it->second);
            from.push_back({pid, tid, &in, &th, base, p.offset});
        }
    }
    std::stable_sort(from.begin(), from.end(), [](const From& a, const From& b) {
        return std::pair{a.pid, a.tid} < std::pair{b.pid, b.tid};
    });
    for (const From& f : from) {
        const bool again = !k.threads.empty() && k.threads.back().pid == f.pid &&
                           k.threads.back().tid == f.tid; // (the parts' ids differ: not expected)
        if (!again) k.threads.push_back({f.pid, f.tid, k.ts.size(), 0});
        for (uint64_t r = f.thread->first; r < f.thread->end(); ++r) {
            k.ts.push_back(f.in->ts[r] + f.offset);
            k.callsite.push_back(f.in->callsite[r] ? f.in->callsite[r] + f.base : 0);
            k.kind.push_back(f.in->kind[r]);
        }
        SampleThread& t = k.threads.back();
        t.count += f.thread->count;
        if (again) sortThread(k, t);
    }
    for (const SampleThread& t : k.threads)
        out.span = {std::min(out.span.start, k.ts[t.first]),
                    std::max(out.span.end, k.ts[t.end() - 1])};
    return out;
}

void shiftStackSamples(StackSamples& k, const std::vector<Track>& tracks,
                       const std::function<TimeNs(TrackId)>& shiftOf,
                       const std::function<void(TimeNs, TimeNs)>& see) {
    std::map<std::pair<int64_t, int64_t>, TrackId> mainLane;
    for (TrackId i = 0; i < tracks.size(); ++i)
        if (tracks[i].kind == TrackKind::Thread && tracks[i].lane == 0)
            mainLane.emplace(std::pair{tracks[i].pid, tracks[i].tid}, i);
    for (const SampleThread& t : k.threads) {
        const auto it = mainLane.find({t.pid, t.tid});
        const TimeNs d = it == mainLane.end() ? 0 : shiftOf(it->second);
        for (uint64_t r = t.first; r < t.end(); ++r) k.ts[r] += d;
        if (t.count) see(k.ts[t.first], k.ts[t.end() - 1]);
    }
}

} // namespace strata
