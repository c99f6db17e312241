#include "analysis/json/section_stats_json.h"

namespace strata {

nlohmann::json sectionStatsToJson(const SectionStats& st) {
    nlohmann::json j;
    j["unit"] = st.unit();
    j["clock_hz"] = st.clockHz > 0 ? nlohmann::json(st.clockHz) : nlohmann::json();
    j["launches"] = st.launches;
    j["blocks"] = st.blocks;
    j["lost"] = st.lost;
    j["total"] = st.total;
    nlohmann::json list = nlohmann::json::array();
    for (const SectionStat& s : st.sections)
        list.push_back({{"name", s.name},
                        {"count", s.samples.count},
                        {"total", s.samples.total},
                        {"mean", s.samples.mean},
                        {"median", s.samples.median},
                        {"p95", s.samples.p95},
                        {"max", s.samples.max},
                        {"share", s.share},
                        {"blocks", s.blocks.count},
                        {"block_mean", s.blocks.mean},
                        {"block_max", s.blocks.max}});
    j["sections"] = list;
    j["warnings"] = st.warnings;
    return j;
}

} // namespace strata
