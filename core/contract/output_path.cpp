#include "contract/output_path.h"

#include "contract/collector_env.h"

#include <algorithm>
#include <cstdlib>
#include <unistd.h>
#include <vector>

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

bool isSafe(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '_' || c == '-';
}

bool accepts(Placeholder p, char c) {
    switch (p) {
    case Placeholder::Pid:
        return c >= '0' && c <= '9';
    case Placeholder::Rank:
    case Placeholder::Host:
        return isSafe(c);
    case Placeholder::None:
        break;
    }
    return false;
}

// The template as tokens: a literal character or a placeholder (one or more accepted chars).
struct Token {
    Placeholder p = Placeholder::None;
    char c = 0;
};

std::vector<Token> tokenize(std::string_view t) {
    std::vector<Token> tokens;
    for (size_t i = 0; i < t.size();) {
        size_t len = 0;
        const Placeholder p = placeholderAt(t, i, &len);
        if (p == Placeholder::None) {
            tokens.push_back({p, t[i]});
            ++i;
        } else {
            tokens.push_back({p, 0});
            i += len;
        }
    }
    return tokens;
}

// Runs the template as an automaton over the path: state k = the first k tokens matched (and,
// for a placeholder token k - 1, possibly more of its characters to come). One pass over the
// path, O(path x template), no backtracking.
bool matchTokens(const std::vector<Token>& tokens, std::string_view s) {
    const size_t n = tokens.size();
    std::vector<char> at(n + 1, 0), next(n + 1, 0);
    at[0] = 1;
    for (char c : s) {
        std::fill(next.begin(), next.end(), 0);
        bool any = false;
        for (size_t k = 0; k <= n; ++k) {
            if (!at[k]) continue;
            // Token k - 1 is a placeholder that may take this character too.
            if (k > 0 && tokens[k - 1].p != Placeholder::None && accepts(tokens[k - 1].p, c))
                next[k] = 1, any = true;
            if (k == n) continue;
            const Token& tok = tokens[k];
            if (tok.p == Placeholder::None ? tok.c == c : accepts(tok.p, c))
                next[k + 1] = 1, any = true;
        }
        if (!any) return false;
        at.swap(next);
    }
    return at[n] != 0;
}

} // namespace

std::string safePathValue(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (!isSafe(c))
            c = '_';
        else if (c == '.' && !out.empty() && out.back() == '.')
            c = '_'; // never ".."
        out += c;
    }
    if (out.empty() || out == ".") return "_";
    return out;
}

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
            out += safePathValue(v.rank);
            break;
        case Placeholder::Host:
            out += safePathValue(v.host);
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
    return matchTokens(tokenize(pathTemplate), path);
}

bool hasPlaceholders(std::string_view t) {
    for (size_t i = 0; i < t.size(); ++i) {
        size_t len = 0;
        if (placeholderAt(t, i, &len) != Placeholder::None) return true;
    }
    return false;
}

std::string expandStartTime(std::string_view t, std::time_t start) {
    std::tm tm{};
    localtime_r(&start, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    std::string out;
    constexpr std::string_view kTime = "{time}";
    for (size_t i = 0; i < t.size();) {
        if (t.substr(i, kTime.size()) == kTime) {
            out += stamp;
            i += kTime.size();
        } else {
            out += t[i++];
        }
    }
    return out;
}

std::string defaultOutputTemplate(std::string_view folder, std::string_view program) {
    std::string out(folder);
    if (!out.empty() && out.back() != '/') out += '/';
    out += program.empty() ? std::string_view("strata") : program;
    return out + "-{time}-{host}-{pid}.strata";
}

} // namespace strata
