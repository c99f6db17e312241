#include "io/export/perfetto_sections.h"

#include "model/section_placement.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <queue>
#include <set>
#include <tuple>
#include <vector>

namespace strata {
namespace {

// A sample placed on the trace's clock.
struct Placed {
    int64_t pid = 0;
    TimeNs start = 0, end = 0;
    uint32_t set = 0, sample = 0;
    uint16_t sm = 0;
};

bool inRange(const std::optional<TimeRange>& range, TimeNs start, TimeNs end) {
    if (!range) return true;
    if (end == start) return start >= range->start && start < range->end;
    return start < range->end && end > range->start;
}

// Every sample that can be placed, by (pid, SM, start, longest first); the others counted.
std::vector<Placed> placeSamples(const Trace& t, const PartIds& ids,
                                 const std::optional<TimeRange>& range, PerfettoExportResult& r) {
    std::vector<Placed> out;
    const auto& sets = t.sections();
    for (uint32_t i = 0; i < sets.size(); ++i) {
        const SectionSet& set = sets[i];
        if (set.samples.empty()) continue;
        const SliceRef k = set.hasTimes ? kernelOfSections(t, set) : SliceRef{};
        if (!k.valid()) {
            ++r.sectionSetsDropped;
            r.sectionSamplesDropped += set.samples.size();
            continue;
        }
        const TimeNs shift = sectionTimeShift(t, set);
        const int64_t pid = ids.pid(k.track);
        for (uint32_t j = 0; j < set.samples.size(); ++j) {
            const SectionSample& x = set.samples[j];
            Placed p;
            TimeNs fromOrigin = 0;
            if (__builtin_add_overflow(x.startNs, shift, &p.start) ||
                __builtin_add_overflow(x.endNs, shift, &p.end) ||
                __builtin_sub_overflow(p.start, t.bounds().start, &fromOrigin)) {
                ++r.sectionSamplesDropped; // damaged times that no clock shift can place
                continue;
            }
            if (!inRange(range, p.start, p.end)) continue;
            p.pid = pid;
            p.set = i;
            p.sample = j;
            p.sm = x.sm;
            out.push_back(p);
        }
    }
    std::sort(out.begin(), out.end(), [](const Placed& a, const Placed& b) {
        return std::tie(a.pid, a.sm, a.start, b.end, a.set, a.sample) <
               std::tie(b.pid, b.sm, b.start, a.end, b.set, b.sample);
    });
    return out;
}

// Per (pid, SM): each sample on the lowest slot free at its start, preferring the slot its
// recorder (set, block, warp) used last, so that a block's sections stay on one thread. Slots
// never hold two samples that overlap: the slices of a thread nest.
std::vector<uint32_t> assignSlots(const Trace& t, const std::vector<Placed>& v) {
    std::vector<uint32_t> slot(v.size(), 0);
    using Busy = std::pair<TimeNs, uint32_t>; // (end, slot)
    size_t i = 0;
    while (i < v.size()) {
        size_t j = i;
        while (j < v.size() && v[j].pid == v[i].pid && v[j].sm == v[i].sm) ++j;
        std::set<uint32_t> free;
        std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> last;
        uint32_t slots = 0;
        for (size_t k = i; k < j; ++k) {
            while (!busy.empty() && busy.top().first <= v[k].start) {
                free.insert(busy.top().second);
                busy.pop();
            }
            const SectionSample& x = t.sections()[v[k].set].samples[v[k].sample];
            const auto key = std::make_tuple(v[k].set, x.block, x.warp);
            uint32_t s;
            if (auto it = last.find(key); it != last.end() && free.count(it->second))
                s = it->second;
            else if (!free.empty())
                s = *free.begin();
            else
                s = slots++;
            free.erase(s);
            busy.push({v[k].end, s});
            last[key] = s;
            slot[k] = s;
        }
        i = j;
    }
    return slot;
}

class SectionWriter {
public:
    SectionWriter(JsonOut& out, const Trace& t, PartIds& ids, TimeNs origin,
                  const SectionEventSink& sink)
        : out_(out), t_(t), ids_(ids), origin_(origin), sink_(sink) {}

    int64_t threadOf(int64_t pid, uint16_t sm, uint32_t slot) {
        const auto key = std::make_tuple(pid, sm, slot);
        if (auto it = tids_.find(key); it != tids_.end()) return it->second;
        const int64_t tid = ids_.newTid();
        tids_[key] = tid;
        std::string name = "SM " + std::to_string(sm) + " sections";
        if (slot) name += ", slot " + std::to_string(slot);
        sink_.beginEvent();
        out_.raw("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": ");
        ids(pid, tid);
        out_.raw(", \"args\": {\"name\": ");
        out_.str(name);
        out_.raw("}}");
        // After the device's streams (whose sort indices stay below 2^26 + 64).
        const int64_t sort = 70'000'000 + int64_t(sm) * 64 + std::min<uint32_t>(slot, 63);
        sink_.beginEvent();
        out_.raw("{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": ");
        ids(pid, tid);
        out_.raw(", \"args\": {\"sort_index\": ");
        out_.i64(sort);
        out_.raw("}}");
        return tid;
    }

    void slice(const Placed& p, int64_t tid) {
        const SectionSet& set = t_.sections()[p.set];
        const SectionSample& x = set.samples[p.sample];
        sink_.beginEvent();
        out_.raw("{\"ph\": \"X\", \"cat\": \"gpu_section\", \"name\": ");
        if (x.section < set.names.size() && !set.names[x.section].empty()) {
            out_.str(set.names[x.section]);
        } else {
            char name[24];
            std::snprintf(name, sizeof name, "section %u", unsigned(x.section));
            out_.str(name);
        }
        out_.raw(", \"pid\": ");
        ids(p.pid, tid);
        out_.raw(", \"ts\": ");
        out_.micros(p.start - origin_);
        out_.raw(", \"dur\": ");
        out_.micros(p.end - p.start);
        out_.raw(", \"args\": {\"kernel\": ");
        out_.str(set.kernel);
        out_.raw(", \"correlation\": ");
        out_.i64(ids_.correlation(set.correlation));
        out_.raw(", \"block\": ");
        out_.u64(x.block);
        if (set.perWarp) {
            out_.raw(", \"warp\": ");
            out_.u64(x.warp);
        }
        out_.raw(", \"sm\": ");
        out_.u64(x.sm);
        out_.raw(", \"iteration\": ");
        out_.u64(x.iteration);
        out_.raw(", \"cycles\": ");
        out_.i64(x.cycles);
        out_.raw("}}");
    }

    size_t threads() const { return tids_.size(); }

private:
    void ids(int64_t pid, int64_t tid) {
        out_.i64(pid);
        out_.raw(", \"tid\": ");
        out_.i64(tid);
    }

    JsonOut& out_;
    const Trace& t_;
    PartIds& ids_;
    TimeNs origin_;
    const SectionEventSink& sink_;
    std::map<std::tuple<int64_t, uint16_t, uint32_t>, int64_t> tids_;
};

} // namespace

size_t sectionSampleCount(const Trace& t) {
    size_t n = 0;
    for (const SectionSet& s : t.sections()) n += s.samples.size();
    return n;
}

bool writeSectionSlices(JsonOut& out, const Trace& t, PartIds& ids, TimeNs origin,
                        const std::optional<TimeRange>& range, const SectionEventSink& sink,
                        PerfettoExportResult& r) {
    if (t.sections().empty()) return true;
    const std::vector<Placed> placed = placeSamples(t, ids, range, r);
    const std::vector<uint32_t> slots = assignSlots(t, placed);
    SectionWriter w(out, t, ids, origin, sink);
    for (size_t i = 0; i < placed.size(); ++i) {
        if ((i & 4095) == 4095 && !sink.tick(4096)) return false;
        w.slice(placed[i], w.threadOf(placed[i].pid, placed[i].sm, slots[i]));
        ++r.sectionSlices;
    }
    r.sectionThreads = w.threads();
    return sink.tick(placed.size() % 4096);
}

} // namespace strata
