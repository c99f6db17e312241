#include "analysis/memory_usage.h"

#include "model/names/track_names.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace strata {

namespace {

// The keys of a `[memory]` instant's args (StringPool::kNotFound when the trace has none).
struct MemoryKeys {
    StringId total, reserved, bytes, addr, type, device;
    explicit MemoryKeys(const StringPool& p)
        : total(p.find("Total Allocated")), reserved(p.find("Total Reserved")),
          bytes(p.find("Bytes")), addr(p.find("Addr")), type(p.find("Device Type")),
          device(p.find("Device Id")) {}
};

bool numberArg(const ArgStore& a, ArgSetId set, StringId key, int64_t* out) {
    ArgValue v;
    if (key == StringPool::kNotFound || !a.find(set, key, &v)) return false;
    switch (v.type) {
    case ArgValue::Type::Int:
        *out = v.i;
        return true;
    case ArgValue::Type::UInt:
        *out = int64_t(v.u);
        return true;
    case ArgValue::Type::Double:
        *out = int64_t(v.d);
        return true;
    default:
        return false;
    }
}

// A `[memory]` instant: its sample, and whether it said what is allocated after it.
struct RawSample {
    MemorySample s;
    bool hasTotal = false;
};

void fromInstants(const Trace& t, std::map<int32_t, std::vector<RawSample>>& out) {
    const StringId name = t.strings().find("[memory]");
    if (name == StringPool::kNotFound) return;
    const MemoryKeys k(t.strings());
    if (k.total == StringPool::kNotFound && k.bytes == StringPool::kNotFound) return;
    for (const Track& tr : t.tracks()) {
        const InstantColumns& in = tr.instants;
        for (size_t i = 0; i < in.size(); ++i) {
            if (in.name[i] != name) continue;
            RawSample r;
            MemorySample& s = r.s;
            s.ts = in.ts[i];
            r.hasTotal = numberArg(t.argStore(), in.args[i], k.total, &s.allocated);
            const bool hasBytes = numberArg(t.argStore(), in.args[i], k.bytes, &s.bytes);
            if (!r.hasTotal && !hasBytes) continue;
            numberArg(t.argStore(), in.args[i], k.reserved, &s.reserved);
            int64_t addr = 0, type = 1, device = 0;
            if (numberArg(t.argStore(), in.args[i], k.addr, &addr)) s.addr = uint64_t(addr);
            numberArg(t.argStore(), in.args[i], k.type, &type);
            numberArg(t.argStore(), in.args[i], k.device, &device);
            // Kineto's Device Type is c10's: 0 the CPU, any other a device ("Device Id").
            const int32_t dev =
                type == 0
                    ? -1
                    : int32_t(std::clamp<int64_t>(device, 0, std::numeric_limits<int32_t>::max()));
            out[dev].push_back(r);
        }
    }
}

// A device's instants in time order, what is allocated after each: the event's "Total
// Allocated", else the one before it plus its Bytes. A series without any total (the 2021
// schema) is raised by what its running sum fell below zero.
MemorySeries instantSeries(int32_t device, std::vector<RawSample>& raw) {
    std::stable_sort(raw.begin(), raw.end(),
                     [](const RawSample& a, const RawSample& b) { return a.s.ts < b.s.ts; });
    MemorySeries series;
    series.device = series.recordedDevice = device;
    int64_t held = 0, lowest = 0;
    bool anyTotal = false;
    for (RawSample& r : raw) {
        if (r.hasTotal) {
            held = r.s.allocated;
            anyTotal = true;
        } else {
            // Saturated: a file's Bytes may be anything.
            if (__builtin_add_overflow(held, r.s.bytes, &held))
                held = r.s.bytes > 0 ? std::numeric_limits<int64_t>::max()
                                     : std::numeric_limits<int64_t>::min();
            r.s.allocated = held;
        }
        lowest = std::min(lowest, held);
        series.samples.push_back(r.s);
    }
    series.summed = !anyTotal;
    if (series.summed && lowest < 0)
        for (MemorySample& s : series.samples)
            if (__builtin_sub_overflow(s.allocated, lowest, &s.allocated))
                s.allocated = std::numeric_limits<int64_t>::max();
    return series;
}

} // namespace

int32_t memoryCounterDevice(std::string_view name) {
    const auto counter = parseGpuCounterName(name);
    return counter && counter->first >= 0 && counter->second == "memory allocated (bytes)"
               ? counter->first
               : -1;
}

namespace {

void fromCollectorCounters(const Trace& t, std::map<int32_t, MemorySeries>& out) {
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::Counter) continue;
        const int32_t device = memoryCounterDevice(t.str(tr.name));
        if (device < 0) continue;
        MemorySeries& series = out[device];
        series.device = series.recordedDevice = device;
        int64_t previous = 0;
        for (size_t i = 0; i < tr.counter.size(); ++i) {
            MemorySample s;
            s.ts = tr.counter.ts[i];
            s.allocated = int64_t(tr.counter.value[i]);
            s.bytes = s.allocated - previous;
            previous = s.allocated;
            series.samples.push_back(s);
        }
    }
}

// "0, 2, 3".
std::string idList(const std::set<int32_t>& ids) {
    std::string out;
    for (int32_t id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
}

// The GPU series whose device runs no kernel: drawn as the kernels' device when the kernels run
// on one device that has no memory series of its own; otherwise kept, and said.
void mapDevices(const Trace& t, std::map<int32_t, MemorySeries>& series,
                std::vector<std::string>& warnings) {
    std::set<int32_t> kernels, stray;
    for (const Track& tr : t.tracks())
        if (tr.kind == TrackKind::GpuStream && tr.device >= 0 && tr.slices.size() > 0)
            kernels.insert(tr.device);
    if (kernels.empty()) return; // memory alone: nothing to map it to
    for (const auto& [device, s] : series)
        if (device >= 0 && !kernels.count(device)) stray.insert(device);
    if (stray.empty()) return;
    const int32_t only = *kernels.begin();
    if (stray.size() == 1 && kernels.size() == 1 && !series.count(only)) {
        MemorySeries s = std::move(series.at(*stray.begin()));
        series.erase(*stray.begin());
        s.device = only;
        series.emplace(only, std::move(s));
        return;
    }
    warnings.push_back("memory events name GPU device " + idList(stray) +
                       ", on which no kernel runs (kernels on device " + idList(kernels) +
                       "): not drawn, as which device they mean is unknown");
}

} // namespace

const MemorySeries* MemoryUsage::of(int32_t device) const {
    for (const MemorySeries& s : series)
        if (s.device == device) return &s;
    return nullptr;
}

MemoryUsage memoryUsage(const Trace& trace) {
    std::map<int32_t, std::vector<RawSample>> instants;
    fromInstants(trace, instants);
    std::map<int32_t, MemorySeries> byDevice;
    for (auto& [device, raw] : instants) byDevice[device] = instantSeries(device, raw);
    fromCollectorCounters(trace, byDevice);
    MemoryUsage u;
    mapDevices(trace, byDevice, u.warnings);
    for (auto& [device, s] : byDevice) {
        std::stable_sort(s.samples.begin(), s.samples.end(),
                         [](const MemorySample& a, const MemorySample& b) { return a.ts < b.ts; });
        for (size_t i = 0; i < s.samples.size(); ++i) {
            const MemorySample& x = s.samples[i];
            if (x.allocated > s.samples[s.peak].allocated) s.peak = i;
            if (x.reserved > s.samples[s.reservedPeak].reserved) s.reservedPeak = i;
            s.hasReserved |= x.reserved >= 0;
        }
        u.series.push_back(std::move(s));
    }
    return u;
}

std::vector<MemoryPeak> memoryPeaks(const MemoryUsage& usage, TimeRange range) {
    std::vector<MemoryPeak> out;
    for (const MemorySeries& s : usage.series) {
        MemoryPeak p;
        p.device = s.device;
        p.recordedDevice = s.recordedDevice;
        p.summed = s.summed;
        // The last sample before the range: what was held at its start.
        const ptrdiff_t before = range.start > std::numeric_limits<TimeNs>::min()
                                     ? sampleAt(s, range.start - 1)
                                     : ptrdiff_t(-1);
        bool any = false;
        if (before >= 0) {
            const MemorySample& x = s.samples[size_t(before)];
            p.bytes = x.allocated;
            p.at = range.start;
            p.reserved = x.reserved;
            any = true;
        }
        for (size_t i = size_t(before + 1); i < s.samples.size() && s.samples[i].ts < range.end;
             ++i) {
            const MemorySample& x = s.samples[i];
            ++p.samples;
            if (!any || x.allocated > p.bytes) {
                p.bytes = x.allocated;
                p.at = x.ts;
            }
            p.reserved = std::max(p.reserved, x.reserved);
            any = true;
        }
        if (any) out.push_back(p);
    }
    return out;
}

ptrdiff_t sampleAt(const MemorySeries& s, TimeNs t) {
    const auto it = std::upper_bound(s.samples.begin(), s.samples.end(), t,
                                     [](TimeNs v, const MemorySample& x) { return v < x.ts; });
    return ptrdiff_t(it - s.samples.begin()) - 1;
}

} // namespace strata
