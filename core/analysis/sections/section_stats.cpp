#include "analysis/sections/section_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace strata {

ValueStats valueStats(std::vector<double>& v) {
    ValueStats s;
    s.count = v.size();
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    for (double x : v) s.total += x;
    s.mean = s.total / double(v.size());
    const size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    // Nearest rank: the ceil(0.95 n)-th smallest, computed in integers (0.95 n is not exact).
    const size_t rank = std::max<size_t>(1, (95 * n + 99) / 100);
    s.p95 = v[rank - 1];
    s.min = v.front();
    s.max = v.back();
    return s;
}

namespace {

double scaleOf(const SectionSet& set, double clockHz, bool ns) {
    if (!ns) return 1.0;
    const double hz = clockHz > 0 ? clockHz : set.clockHz;
    return 1e9 / hz;
}

} // namespace

SectionStats sectionStats(std::span<const SectionSet* const> sets, double clockHz) {
    SectionStats out;
    out.launches = sets.size();
    bool allClocked = !sets.empty();
    double firstHz = 0;
    bool mixed = false;
    for (const SectionSet* set : sets) {
        allClocked = allClocked && (clockHz > 0 || set->clockHz > 0);
        if (set->clockHz > 0) {
            if (firstHz == 0)
                firstHz = set->clockHz;
            else if (set->clockHz != firstHz)
                mixed = true;
        }
        out.lost += set->lost;
    }
    out.ns = allClocked;
    out.clockHz = clockHz > 0 ? clockHz : firstHz;
    if (mixed && clockHz <= 0)
        out.warnings.push_back("the launches were recorded at different clock rates; each is "
                               "converted with its own");

    std::map<uint16_t, std::vector<double>> values;   // per section: samples
    std::map<uint16_t, std::vector<double>> perBlock; // per section: block totals
    std::map<uint16_t, std::string> names;
    for (const SectionSet* set : sets) {
        const double k = scaleOf(*set, clockHz, out.ns);
        std::map<std::pair<uint32_t, uint16_t>, double> blockTotals;
        std::vector<uint32_t> blocks;
        for (const SectionSample& s : set->samples) {
            const double x = double(s.cycles) * k;
            values[s.section].push_back(x);
            blockTotals[{s.block, s.section}] += x;
            blocks.push_back(s.block);
            if (!names.count(s.section)) names[s.section] = set->nameOf(s.section);
        }
        for (const auto& [key, total] : blockTotals) perBlock[key.second].push_back(total);
        std::sort(blocks.begin(), blocks.end());
        out.blocks += uint64_t(std::unique(blocks.begin(), blocks.end()) - blocks.begin());
    }
    for (auto& [id, v] : values) {
        SectionStat st;
        st.id = id;
        st.name = names[id];
        st.samples = valueStats(v);
        st.blocks = valueStats(perBlock[id]);
        out.total += st.samples.total;
        out.sections.push_back(std::move(st));
    }
    for (SectionStat& st : out.sections)
        st.share = out.total > 0 ? st.samples.total / out.total : 0;
    if (out.lost > 0)
        out.warnings.push_back(std::to_string(out.lost) +
                               " section records were lost: the device buffer was full (give the "
                               "recorder a larger capacity); the statistics leave them out");
    return out;
}

size_t SectionColumns::columnOf(uint16_t id) const {
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it != ids.end() && *it == id ? size_t(it - ids.begin()) : ids.size();
}

SectionColumns sectionColumns(const SectionSet& set, size_t max) {
    std::unordered_map<uint16_t, double> totals; // by section id, over the samples
    for (const SectionSample& s : set.samples) totals[s.section] += double(s.cycles);
    std::vector<std::pair<double, uint16_t>> bySize;
    bySize.reserve(totals.size());
    for (const auto& [id, total] : totals) bySize.emplace_back(total, id);
    // Largest first; equal totals by id, so that the choice does not depend on the hash.
    std::sort(bySize.begin(), bySize.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    SectionColumns c;
    // With one section too many for the columns, fold none: "other" would hold exactly one.
    const size_t shown = bySize.size() <= max + 1 ? bySize.size() : max;
    for (size_t i = 0; i < shown; ++i) c.ids.push_back(bySize[i].second);
    std::sort(c.ids.begin(), c.ids.end());
    for (uint16_t id : c.ids) c.names.push_back(set.nameOf(id));
    c.folded = bySize.size() - shown;
    if (c.folded) c.names.push_back("other (" + std::to_string(c.folded) + " sections)");
    return c;
}

std::vector<BlockSections> blockSections(const SectionSet& set, double clockHz) {
    return blockSections(set, sectionColumns(set), clockHz);
}

std::vector<BlockSections> blockSections(const SectionSet& set, const SectionColumns& columns,
                                         double clockHz) {
    const double hz = clockHz > 0 ? clockHz : set.clockHz;
    const double k = hz > 0 ? 1e9 / hz : 1.0;
    // Samples come ordered by block (finishSectionSet): find a block's entry once per run.
    std::map<uint32_t, BlockSections> byBlock;
    BlockSections* b = nullptr;
    for (const SectionSample& s : set.samples) {
        if (!b || b->block != s.block) {
            auto [it, fresh] = byBlock.try_emplace(s.block);
            b = &it->second;
            if (fresh) {
                b->block = s.block;
                b->sm = s.sm;
                b->startNs = s.startNs;
                b->endNs = s.endNs;
                b->bySection.assign(columns.count(), 0.0);
            }
        }
        const double x = double(s.cycles) * k;
        const size_t c = columns.columnOf(s.section);
        if (c < b->bySection.size()) b->bySection[c] += x;
        b->total += x;
        b->startNs = std::min(b->startNs, s.startNs);
        b->endNs = std::max(b->endNs, s.endNs);
    }
    std::vector<BlockSections> out;
    out.reserve(byBlock.size());
    for (auto& [id, block] : byBlock) out.push_back(std::move(block));
    return out;
}

std::vector<std::vector<double>> iterationSections(const SectionSet& set, double clockHz) {
    return iterationSections(set, sectionColumns(set), clockHz);
}

std::vector<std::vector<double>> iterationSections(const SectionSet& set,
                                                   const SectionColumns& columns, double clockHz) {
    const double hz = clockHz > 0 ? clockHz : set.clockHz;
    const double k = hz > 0 ? 1e9 / hz : 1.0;
    // Iterations number each block's entries into a section (<= the samples) or an array's
    // columns (<= its cells): as many rows as the samples need, never more.
    uint32_t iterations = 0;
    for (const SectionSample& s : set.samples) iterations = std::max(iterations, s.iteration + 1);
    std::vector<std::vector<double>> out(iterations, std::vector<double>(columns.count(), 0.0));
    for (const SectionSample& s : set.samples) {
        const size_t c = columns.columnOf(s.section);
        if (c < columns.count()) out[s.iteration][c] += double(s.cycles) * k;
    }
    return out;
}

} // namespace strata
