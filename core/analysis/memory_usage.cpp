#include "analysis/memory_usage.h"

#include <algorithm>
#include <charconv>
#include <map>

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

void fromInstants(const Trace& t, std::map<int32_t, MemorySeries>& out) {
    const StringId name = t.strings().find("[memory]");
    if (name == StringPool::kNotFound) return;
    const MemoryKeys k(t.strings());
    if (k.total == StringPool::kNotFound) return;
    for (const Track& tr : t.tracks()) {
        const InstantColumns& in = tr.instants;
        for (size_t i = 0; i < in.size(); ++i) {
            if (in.name[i] != name) continue;
            MemorySample s;
            s.ts = in.ts[i];
            if (!numberArg(t.argStore(), in.args[i], k.total, &s.allocated)) continue;
            numberArg(t.argStore(), in.args[i], k.reserved, &s.reserved);
            numberArg(t.argStore(), in.args[i], k.bytes, &s.bytes);
            int64_t addr = 0, type = 1, device = 0;
            if (numberArg(t.argStore(), in.args[i], k.addr, &addr)) s.addr = uint64_t(addr);
            numberArg(t.argStore(), in.args[i], k.type, &type);
            numberArg(t.argStore(), in.args[i], k.device, &device);
            // Kineto's Device Type is c10's: 0 the CPU, any other a device ("Device Id").
            const int32_t dev = type == 0 ? -1 : int32_t(std::max<int64_t>(device, 0));
            MemorySeries& series = out[dev];
            series.device = dev;
            series.samples.push_back(s);
        }
    }
}

} // namespace

int32_t memoryCounterDevice(std::string_view name) {
    constexpr std::string_view kHead = "GPU ", kTail = " memory allocated (bytes)";
    if (name.size() <= kHead.size() + kTail.size() || name.substr(0, kHead.size()) != kHead ||
        name.substr(name.size() - kTail.size()) != kTail)
        return -1;
    const std::string_view digits =
        name.substr(kHead.size(), name.size() - kHead.size() - kTail.size());
    int32_t device = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), device);
    return ec == std::errc() && end == digits.data() + digits.size() && device >= 0 ? device : -1;
}

namespace {

void fromCollectorCounters(const Trace& t, std::map<int32_t, MemorySeries>& out) {
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::Counter) continue;
        const int32_t device = memoryCounterDevice(t.str(tr.name));
        if (device < 0) continue;
        MemorySeries& series = out[device];
        series.device = device;
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

} // namespace

const MemorySeries* MemoryUsage::of(int32_t device) const {
    for (const MemorySeries& s : series)
        if (s.device == device) return &s;
    return nullptr;
}

MemoryUsage memoryUsage(const Trace& trace) {
    std::map<int32_t, MemorySeries> byDevice;
    fromInstants(trace, byDevice);
    fromCollectorCounters(trace, byDevice);
    MemoryUsage u;
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

ptrdiff_t sampleAt(const MemorySeries& s, TimeNs t) {
    const auto it = std::upper_bound(s.samples.begin(), s.samples.end(), t,
                                     [](TimeNs v, const MemorySample& x) { return v < x.ts; });
    return ptrdiff_t(it - s.samples.begin()) - 1;
}

} // namespace strata
