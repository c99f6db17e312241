#include "analysis/ranks/rank_identity.h"

#include "contract/collector_env.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numeric>

namespace strata {

namespace {

// Nanoseconds since 1970 of 2000-01-01 and 2100-01-01.
constexpr TimeNs kYear2000 = 946'684'800'000'000'000;
constexpr TimeNs kYear2100 = 4'102'444'800'000'000'000;

// A whole number of digits only that fits in 64 bits (baseTimeNanoseconds has 19 digits).
std::optional<int64_t> wholeNumber(std::string_view s) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || s.front() == '-' || ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<std::string> metadata(const Trace& t, const std::string& key) {
    const auto it = t.metadata().find(key);
    if (it == t.metadata().end()) return std::nullopt;
    return it->second;
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

const char* rankSourceName(RankSource s) {
    switch (s) {
    case RankSource::DistributedInfo:
        return "distributedInfo";
    case RankSource::Recording:
        return "recording";
    case RankSource::FileName:
        return "file name";
    case RankSource::FileIndex:
        break;
    }
    return "index";
}

std::optional<RankSource> rankSourceFromName(std::string_view name) {
    for (RankSource s : {RankSource::DistributedInfo, RankSource::Recording, RankSource::FileName,
                         RankSource::FileIndex})
        if (name == rankSourceName(s)) return s;
    return std::nullopt;
}

std::optional<int64_t> rankFromFileName(const std::string& file) {
    const std::string name = baseName(file);
    std::string lower(name);
    for (char& c : lower) c = char(std::tolower(uint8_t(c)));
    auto digitsAt = [&](size_t at) -> std::optional<int64_t> {
        size_t end = at;
        while (end < name.size() && std::isdigit(uint8_t(name[end]))) ++end;
        return wholeNumber(std::string_view(name).substr(at, end - at));
    };
    // "rank3", "rank-3", "rank_3", "RANK.3".
    for (size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 1)) {
        size_t d = at + 4;
        if (d < name.size() && (name[d] == '-' || name[d] == '_' || name[d] == '.')) ++d;
        if (const auto n = digitsAt(d)) return n;
    }
    for (size_t i = 0; i < name.size(); ++i)
        if (std::isdigit(uint8_t(name[i]))) return digitsAt(i);
    return std::nullopt;
}

RankIdentity rankIdentity(const Trace& t, const std::string& file, int64_t index) {
    RankIdentity id;
    id.rank = index;
    if (const auto info = metadata(t, "distributedInfo")) {
        const nlohmann::json j = nlohmann::json::parse(*info, nullptr, false);
        if (j.is_object() && j.contains("rank") && j["rank"].is_number_integer()) {
            id.rank = j["rank"].get<int64_t>();
            id.source = RankSource::DistributedInfo;
        }
        if (j.is_object() && j.contains("world_size") && j["world_size"].is_number_integer())
            id.worldSize = j["world_size"].get<int64_t>();
    }
    if (id.source == RankSource::FileIndex) {
        if (const auto r = metadata(t, collector_env::kMetaRank); r && wholeNumber(*r)) {
            id.rank = *wholeNumber(*r);
            id.source = RankSource::Recording;
        } else if (const auto n = rankFromFileName(file)) {
            id.rank = *n;
            id.source = RankSource::FileName;
        }
    }
    if (const auto h = metadata(t, collector_env::kMetaHost)) id.host = *h;
    if (id.host.empty() && t.run()) id.host = t.run()->host;
    return id;
}

std::optional<TimeNs> ClockHints::commonBaseOffset() const {
    if (wallClock) return 0;
    return baseTimeNs;
}

ClockHints clockHints(const Trace& t) {
    ClockHints c;
    if (const auto base = metadata(t, "baseTimeNanoseconds")) c.baseTimeNs = wholeNumber(*base);
    const TimeRange b = t.bounds();
    c.wallClock = b.end > b.start && b.start >= kYear2000 && b.end < kYear2100;
    return c;
}

std::vector<size_t> rankOrder(const std::vector<RankIdentity>& ranks) {
    std::vector<size_t> order(ranks.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return ranks[a].rank < ranks[b].rank; });
    return order;
}

std::string rankLabel(const RankIdentity& id) {
    std::string label = "rank " + std::to_string(id.rank);
    if (!id.host.empty()) label += " \u00b7 " + id.host;
    return label;
}

std::vector<std::string> rankLabels(const std::vector<RankIdentity>& ranks,
                                    const std::vector<std::string>& files) {
    std::vector<std::string> out;
    std::map<std::string, int> uses;
    for (const RankIdentity& r : ranks) ++uses[out.emplace_back(rankLabel(r))];
    for (size_t i = 0; i < out.size(); ++i)
        if (uses[out[i]] > 1 && i < files.size())
            out[i] += " (" + std::filesystem::path(files[i]).filename().string() + ")";
    return out;
}

} // namespace strata
