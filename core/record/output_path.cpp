#include "record/output_path.h"

#include "record/collector_env.h"

#include <cstdlib>
#include <unistd.h>

namespace strata {
namespace {

enum class Placeholder { None, Pid, Rank, Host };

// The placeholder starting at s[i], and its length.
Placeholder placeholderAt(std::string_view s, size_t i, size_t* length) {
    static constexpr std::pair<std::string_view, Placeholder> kNames[] = {
        {"{pid}", Placeholder::Pid}, {"{rank}", Placeholder::Rank}, {"{host}", Placeholder::Host}};
    for (const auto& [name, p] : kNames) {
        if (s.substr(i, name.size()) == name) {
            *length = name.size();
            return p;
        }
    }
    return Placeholder::None;
}

bool accepts(Placeholder p, char c) {
    switch (p) {
    case Placeholder::Pid:
        return c >= '0' && c <= '9';
    case Placeholder::Rank:
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '_' || c == '-';
    case Placeholder::Host:
        return c != '/';
    case Placeholder::None:
        break;
    }
    return false;
}

bool matchFrom(std::string_view t, size_t ti, std::string_view s, size_t si) {
    while (ti < t.size()) {
        size_t len = 0;
        const Placeholder p = placeholderAt(t, ti, &len);
        if (p == Placeholder::None) {
            if (si >= s.size() || s[si] != t[ti]) return false;
            ++ti;
            ++si;
            continue;
        }
        // One or more accepted characters, then the rest of the template (backtracking).
        size_t end = si;
        while (end < s.size() && accepts(p, s[end])) ++end;
        for (size_t k = end; k > si; --k)
            if (matchFrom(t, ti + len, s, k)) return true;
        return false;
    }
    return si == s.size();
}

} // namespace

std::string expandOutputPath(std::string_view t, const OutputPathValues& v) {
    std::string out;
    out.reserve(t.size() + 16);
    for (size_t i = 0; i < t.size();) {
        size_t len = 0;
        switch (placeholderAt(t, i, &len)) {
        case Placeholder::Pid:
            out += std::to_string(v.pid);
            break;
        case Placeholder::Rank:
            out += v.rank;
            break;
        case Placeholder::Host:
            out += v.host;
            break;
        case Placeholder::None:
            out += t[i];
            len = 1;
            break;
        }
        i += len;
    }
    return out;
}

std::string rankFromEnvironment(const GetEnv& getenv) {
    for (const char* name : collector_env::kRankVariables) {
        const char* v = getenv(name);
        if (v && *v) return v;
    }
    return "0";
}

std::string rankFromEnvironment() {
    return rankFromEnvironment(
        [](const char* n) { return static_cast<const char*>(std::getenv(n)); });
}

std::string hostName() {
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == 0) return "localhost";
    std::string h = buf;
    if (const size_t dot = h.find('.'); dot != std::string::npos && dot > 0) h.resize(dot);
    return h;
}

OutputPathValues currentProcessValues() {
    return OutputPathValues{int64_t(getpid()), rankFromEnvironment(), hostName()};
}

bool matchesOutputPath(std::string_view pathTemplate, std::string_view path) {
    return matchFrom(pathTemplate, 0, path, 0);
}

bool hasPlaceholders(std::string_view t) {
    for (size_t i = 0; i < t.size(); ++i) {
        size_t len = 0;
        if (placeholderAt(t, i, &len) != Placeholder::None) return true;
    }
    return false;
}

std::string defaultOutputTemplate(std::time_t now) {
    std::tm tm{};
    localtime_r(&now, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    return std::string("strata-") + stamp + "-{host}-{pid}.strata";
}

} // namespace strata
