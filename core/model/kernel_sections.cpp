#include "model/kernel_sections.h"

#include <algorithm>
#include <cstring>

namespace strata {

std::string SectionSet::nameOf(uint16_t id) const {
    if (id < names.size() && !names[id].empty()) return names[id];
    return "section " + std::to_string(id);
}

uint32_t SectionSet::blockCount() const {
    std::vector<uint32_t> blocks;
    blocks.reserve(samples.size());
    for (const SectionSample& s : samples) blocks.push_back(s.block);
    std::sort(blocks.begin(), blocks.end());
    return uint32_t(std::unique(blocks.begin(), blocks.end()) - blocks.begin());
}

SectionRecord readSectionRecord(const uint8_t* r) {
    SectionRecord f;
    std::memcpy(&f, r, sizeof f); // little-endian, as every host Strata runs on
    return f;
}

void writeSectionRecord(uint8_t* r, const SectionRecord& f) {
    std::memcpy(r, &f, sizeof f);
}

void appendSectionRecords(SectionSet& set, const uint8_t* records, size_t count, size_t* bad) {
    // Pieces of one launch arrive one after another: grow geometrically, not to each piece.
    const size_t need = set.samples.size() + count;
    if (need > set.samples.capacity())
        set.samples.reserve(std::max(need, 2 * set.samples.capacity()));
    for (size_t i = 0; i < count; ++i) {
        const SectionRecord f = readSectionRecord(records + i * kSectionRecordBytes);
        const uint64_t startClock = f.start_clock, endClock = f.end_clock, startNs = f.start_ns,
                       endNs = f.end_ns;
        // clock64 is a signed 64-bit counter that never wraps in practice; globaltimer likewise.
        if (endClock < startClock || endNs < startNs || startNs > uint64_t(INT64_MAX) ||
            endNs > uint64_t(INT64_MAX)) {
            if (bad) ++*bad;
            continue;
        }
        SectionSample s;
        s.startNs = int64_t(startNs);
        s.endNs = int64_t(endNs);
        s.cycles = int64_t(std::min<uint64_t>(endClock - startClock, uint64_t(INT64_MAX)));
        s.block = f.block;
        s.warp = f.warp;
        s.section = f.section;
        s.sm = f.sm;
        set.samples.push_back(s);
    }
    set.hasTimes = true;
}

void finishSectionSet(SectionSet& set) {
    auto& v = set.samples;
    if (!set.hasTimes) return; // an import: iterations are the array's columns
    std::sort(v.begin(), v.end(), [](const SectionSample& a, const SectionSample& b) {
        if (a.block != b.block) return a.block < b.block;
        if (a.warp != b.warp) return a.warp < b.warp;
        if (a.section != b.section) return a.section < b.section;
        return a.startNs < b.startNs;
    });
    for (size_t i = 0; i < v.size(); ++i) {
        const bool same = i > 0 && v[i - 1].block == v[i].block && v[i - 1].warp == v[i].warp &&
                          v[i - 1].section == v[i].section;
        v[i].iteration = same ? v[i - 1].iteration + 1 : 0;
    }
}

std::string joinSectionNames(std::span<const std::string> names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += '\n';
        out += names[i];
    }
    return out;
}

std::vector<std::string> splitSectionNames(std::string_view joined) {
    std::vector<std::string> out;
    if (joined.empty()) return out;
    size_t at = 0;
    while (true) {
        const size_t nl = joined.find('\n', at);
        out.emplace_back(joined.substr(at, nl == std::string_view::npos ? nl : nl - at));
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

} // namespace strata
