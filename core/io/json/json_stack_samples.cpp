#include "io/json/json_stack_samples.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {
namespace {

// A frame or sample id: a string, or a whole number written as one.
bool idOf(const nlohmann::json& v, std::string* out) {
    if (v.is_string()) {
        *out = v.get<std::string>();
        return true;
    }
    if (v.is_number_integer()) {
        *out = std::to_string(v.get<int64_t>());
        return true;
    }
    return false;
}

// The stackFrames entries as callsites, parents first: each frame's chain walked up to a frame
// already made or a root, then made top down.
class FrameTable {
public:
    FrameTable(TraceBuilder& b, const nlohmann::json& frames) : b_(b), frames_(frames) {}

    // The callsite of frame `id`, or kNoCallsite (skipped: counted in `bad`).
    CallsiteId get(const std::string& id) {
        if (const auto it = made_.find(id); it != made_.end()) return it->second;
        std::vector<std::string> chain; // from `id` outwards, none made yet
        std::string at = id;
        CallsiteId parent = kNoCallsite;
        while (true) {
            if (const auto it = made_.find(at); it != made_.end()) {
                if (it->second == kNoCallsite) return fail(chain, at); // a skipped ancestor
                parent = it->second;
                break;
            }
            const auto f = frames_.is_object() ? frames_.find(at) : frames_.end();
            if (f == frames_.end() || !f->is_object() || chain.size() > frames_.size())
                return fail(chain, at); // missing, or a cycle (a chain longer than the frames)
            chain.push_back(at);
            const auto p = f->find("parent");
            std::string up;
            if (p == f->end() || p->is_null() || !idOf(*p, &up)) break; // a root
            at = up;
        }
        for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
            const nlohmann::json& f = frames_.at(*c);
            std::string name = f.value("name", std::string("?"));
            if (const auto cat = f.find("category");
                cat != f.end() && cat->is_string() && !cat->get<std::string>().empty())
                name += " (" + cat->get<std::string>() + ")";
            parent = b_.addCallsite(parent, b_.intern(name));
            made_[*c] = parent;
        }
        return parent;
    }
    size_t bad = 0;

private:
    TraceBuilder& b_;
    const nlohmann::json& frames_;
    std::unordered_map<std::string, CallsiteId> made_; // kNoCallsite: skipped

    // Every frame of `chain` and `at` skipped (each counted once).
    CallsiteId fail(const std::vector<std::string>& chain, const std::string& at) {
        for (const std::string& c : chain) bad += made_.try_emplace(c, kNoCallsite).second;
        const bool added = made_.try_emplace(at, kNoCallsite).second;
        if (frames_.is_object() && frames_.contains(at)) bad += added; // (not a missing id)
        return kNoCallsite;
    }
};

} // namespace

void applyStackSamples(TraceBuilder& b, const nlohmann::json& frames,
                       const nlohmann::json& samples) {
    if (!samples.is_array()) return;
    FrameTable table(b, frames);
    size_t badSamples = 0;
    for (const nlohmann::json& s : samples) {
        std::string sf;
        const auto ts = s.is_object() ? s.find("ts") : s.end();
        const auto tid = s.is_object() ? s.find("tid") : s.end();
        if (!s.is_object() || ts == s.end() || !ts->is_number() || tid == s.end() ||
            !tid->is_number_integer() || !idOf(s.value("sf", nlohmann::json()), &sf)) {
            ++badSamples;
            continue;
        }
        const CallsiteId site = table.get(sf);
        if (site == kNoCallsite) {
            ++badSamples;
            continue;
        }
        const double us = ts->get<double>();
        if (!std::isfinite(us) || std::fabs(us) > 4e15) {
            ++badSamples;
            continue;
        }
        const auto pid = s.find("pid");
        const int64_t p = pid != s.end() && pid->is_number_integer() ? pid->get<int64_t>() : 0;
        int64_t weight = 1;
        if (const auto w = s.find("weight"); w != s.end() && w->is_number())
            weight = std::clamp<int64_t>(int64_t(w->get<double>()), 1, 1000);
        for (int64_t i = 0; i < weight; ++i)
            b.addStackSample(p, tid->get<int64_t>(), std::llround(us * 1000.0), site, 0);
    }
    if (table.bad)
        b.addWarning("stackFrames: skipped " + std::to_string(table.bad) +
                     " frame(s) whose parent is missing or that are their own ancestor");
    if (badSamples)
        b.addWarning("samples: skipped " + std::to_string(badSamples) +
                     " sample(s) without a tid, a time or a known frame (\"sf\")");
}

} // namespace strata
