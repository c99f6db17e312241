// Trace::displayName: the short names of the trace's slice and instant names
// (model/display_name.h), made once for all of them so that no two read the same.
#include "model/names/display_name.h"
#include "model/trace.h"

namespace strata {

namespace {

std::unordered_map<StringId, std::string> makeDisplayNames(const Trace& t) {
    // The names slices and instants carry (not the args' strings): one flag per string.
    std::vector<uint8_t> used(t.strings().size(), 0);
    for (const Track& track : t.tracks()) {
        for (StringId id : track.slices.name) used[id] = 1;
        for (StringId id : track.instants.name) used[id] = 1;
    }
    std::vector<StringId> ids;
    std::vector<std::string_view> names;
    for (StringId id = 0; id < used.size(); ++id)
        if (used[id]) {
            ids.push_back(id);
            names.push_back(t.str(id));
        }
    std::vector<std::string> shortNames = distinctShortNames(names);
    std::unordered_map<StringId, std::string> out;
    for (size_t i = 0; i < ids.size(); ++i)
        if (shortNames[i] != names[i]) out.emplace(ids[i], std::move(shortNames[i]));
    return out;
}

} // namespace

std::string_view Trace::displayName(StringId id) const {
    DisplayNameCache& c = *displayNames_;
    std::call_once(c.once, [&] { c.shortOf = makeDisplayNames(*this); });
    if (const auto it = c.shortOf.find(id); it != c.shortOf.end()) return it->second;
    return id < strings_.size() ? str(id) : std::string_view();
}

std::string_view Trace::displayName(std::string_view fullName) const {
    const StringId id = strings_.find(fullName);
    return id == StringPool::kNotFound ? fullName : displayName(id);
}

} // namespace strata
