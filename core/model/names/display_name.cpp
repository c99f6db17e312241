#include "model/names/display_name.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <unordered_map>

namespace strata {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6"; // U+2026
constexpr int kMaxDepth = 64;
// A template argument without brackets of its own stays when it is at most this long (a type,
// a number, a cutlass configuration name such as cutlass_80_tensorop_s1688gemm_128x128_16x5_
// nt_align4, which is what tells two cutlass::Kernel<...> apart).
constexpr size_t kSimpleArg = 80;

bool identChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// A name as a tree: sequences of text and bracket groups, a group's arguments split at its
// top-level commas. '<' opens a group only right after a name ("vector<"), so "<module>" and
// "a < b" stay text; '>' closes one only when a '<' group is open ("->" is text).
struct Node {
    bool group = false;
    char open = 0;
    uint32_t begin = 0, end = 0; // the source span; a group's includes its brackets
    std::vector<uint32_t> args;  // a group's arguments (indices into seqs)
};
struct Seq {
    uint32_t begin = 0, end = 0;
    std::vector<uint32_t> nodes; // indices into nodes
};

class Parsed {
public:
    explicit Parsed(std::string_view s) : src(s) {
        uint32_t at = 0;
        root = newSeq(0);
        ok = s.size() < UINT32_MAX && parseSeq(at, 0, 0, root) && at == s.size();
    }
    std::string_view text(uint32_t b, uint32_t e) const { return src.substr(b, e - b); }

    std::string_view src;
    std::vector<Node> nodes;
    std::vector<Seq> seqs;
    uint32_t root = 0;
    bool ok = false;

private:
    uint32_t newSeq(uint32_t begin) {
        seqs.push_back({begin, begin, {}});
        return uint32_t(seqs.size() - 1);
    }
    // "operator()", "operator<<", ...: the operator's characters are part of the name.
    uint32_t operatorLength(uint32_t at) const {
        constexpr std::string_view kOp = "operator";
        if (src.compare(at, kOp.size(), kOp) != 0 || (at > 0 && identChar(src[at - 1]))) return 0;
        uint32_t e = at + uint32_t(kOp.size());
        if (e < src.size() && identChar(src[e])) return 0; // "operators", "operator_x"
        if (src.compare(e, 2, "()") == 0 || src.compare(e, 2, "[]") == 0) return e + 2 - at;
        for (int n = 0; n < 3 && e < src.size() &&
                        std::string_view("<>=!+-*/%^&|~").find(src[e]) != std::string_view::npos;
             ++n)
            ++e;
        return e - at;
    }
    // Reads seqs[s] from `at` up to `close` or, inside a group, a top-level ','.
    bool parseSeq(uint32_t& at, char close, int depth, uint32_t s) {
        uint32_t textBegin = at;
        auto flush = [&] {
            if (at == textBegin) return;
            Node t;
            t.begin = textBegin;
            t.end = at;
            nodes.push_back(std::move(t));
            seqs[s].nodes.push_back(uint32_t(nodes.size() - 1));
        };
        while (at < src.size()) {
            const char c = src[at];
            if (close && (c == close || c == ',')) break;
            if (const uint32_t op = operatorLength(at)) {
                at += op;
                continue;
            }
            const bool opens =
                c == '(' || c == '[' || c == '{' || (c == '<' && at > 0 && identChar(src[at - 1]));
            if (opens) {
                flush();
                if (!parseGroup(at, depth, s)) return false;
                textBegin = at;
                continue;
            }
            if (c == ')' || c == ']' || c == '}') return false; // closes nothing open
            ++at;
        }
        flush();
        seqs[s].end = at;
        return close == 0 || at < src.size();
    }
    bool parseGroup(uint32_t& at, int depth, uint32_t s) {
        if (depth >= kMaxDepth) return false;
        Node g;
        g.group = true;
        g.open = src[at];
        g.begin = at;
        const char close = g.open == '(' ? ')' : g.open == '[' ? ']' : g.open == '{' ? '}' : '>';
        ++at;
        while (true) {
            const uint32_t a = newSeq(at);
            if (!parseSeq(at, close, depth + 1, a)) return false;
            g.args.push_back(a);
            if (src[at++] == close) break; // else a ','
        }
        g.end = at;
        nodes.push_back(std::move(g));
        seqs[s].nodes.push_back(uint32_t(nodes.size() - 1));
        return true;
    }
};

// What a rendering left out, in reading order: its key (for opening it) and the text it hides.
struct Hole {
    uint32_t key = 0;
    std::string_view hidden;
};

// One rendering of a parsed name, with the holes in `open` shown. Keys: an elided argument
// (seq * 4), an elided parameter list (node * 4 + 1), dropped qualifiers (seq * 4 + 2), what is
// local to a function after its parameter list (the list's node * 4 + 3).
class Renderer {
public:
    Renderer(const Parsed& p, const std::set<uint32_t>& open) : p_(p), open_(open) {
        const Seq& r = p.seqs[p.root];
        // "void f(...)": a kernel's return type says nothing.
        uint32_t skip = 0;
        bool signature = false;
        for (uint32_t n : r.nodes) signature |= paramList(p.nodes[n]);
        if (signature && p.src.starts_with("void ")) skip = 5;
        seq(p.root, 0, skip);
    }
    std::string out;
    std::vector<Hole> holes;

private:
    bool paramList(const Node& g) const {
        if (!g.group || g.open != '(' || g.begin == 0) return false;
        const char before = p_.src[g.begin - 1];
        if (!identChar(before) && before != '>' && before != ')' && before != ']') return false;
        // What follows a parameter list: the end, " const", "::" (what is local to the
        // function), the end of an argument, or "#1" in "{lambda(int)#1}"; not the "#..." of
        // "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__".
        const std::string_view after = p_.src.substr(g.end);
        const bool lambda = p_.text(0, g.begin).ends_with("lambda");
        if (!after.empty() && std::string_view(":,>)}").find(after[0]) == std::string_view::npos &&
            !after.starts_with(" const") && !(lambda && after[0] == '#'))
            return false;
        const std::string_view inner = trimmed(p_.text(g.begin + 1, g.end - 1));
        // "module.py(1501)": a line number, not parameters; "kernel<int>()": none.
        return inner.empty() || inner.find_first_not_of("0123456789") != std::string_view::npos;
    }
    bool opened(uint32_t key) const { return open_.count(key) > 0; }

    // Leading qualifiers of a sequence ("at::native::", "(anonymous namespace)::"), counted from
    // `from`, when a name follows them.
    uint32_t qualifiers(uint32_t from, uint32_t end) const {
        const std::string_view s = p_.text(from, end);
        constexpr std::string_view kAnon = "(anonymous namespace)::";
        size_t at = 0, kept = 0;
        while (at < s.size()) {
            if (s.compare(at, kAnon.size(), kAnon) == 0) {
                at += kAnon.size();
            } else {
                size_t e = at;
                while (e < s.size() && identChar(s[e])) ++e;
                if (e == at || s.compare(e, 2, "::") != 0) break;
                at = e + 2;
            }
            kept = at;
        }
        return kept < s.size() ? uint32_t(kept) : 0;
    }

    void seq(uint32_t s, int depth, uint32_t skip) {
        const Seq& q = p_.seqs[s];
        uint32_t from = q.begin + skip;
        if (depth >= 1) {
            if (const uint32_t ns = qualifiers(from, q.end); ns && !opened(s * 4 + 2)) {
                holes.push_back({s * 4 + 2, p_.text(from, from + ns)});
                from += ns;
            }
        }
        for (size_t k = 0; k < q.nodes.size(); ++k) {
            const uint32_t i = q.nodes[k];
            const Node& n = p_.nodes[i];
            if (n.end <= from) continue;
            if (!n.group) {
                out += p_.text(std::max(n.begin, from), n.end);
                continue;
            }
            if (n.begin < from) continue;
            group(i, depth);
            // "f(…)::{lambda()#3}::operator()() const::{lambda(float)#1}": what is local to a
            // function reads as "f(…)::…" inside an argument.
            if (depth >= 1 && paramList(n) && k + 1 < q.nodes.size()) {
                const Node& next = p_.nodes[q.nodes[k + 1]];
                if (!next.group && p_.text(next.begin, next.end).starts_with("::") &&
                    !opened(i * 4 + 3)) {
                    holes.push_back({i * 4 + 3, p_.text(next.begin, q.end)});
                    out += "::";
                    out += kEllipsis;
                    return;
                }
            }
        }
    }

    void group(uint32_t i, int depth) {
        const Node& g = p_.nodes[i];
        switch (g.open) {
        case '<':
            out += '<';
            argList(g, depth);
            out += '>';
            return;
        case '(': {
            if (!paramList(g)) {
                out += p_.text(g.begin, g.end);
                return;
            }
            if (trimmed(p_.text(g.begin + 1, g.end - 1)).empty()) {
                out += "()";
                return;
            }
            if (!opened(i * 4 + 1)) {
                holes.push_back({i * 4 + 1, p_.text(g.begin, g.end)});
                out += '(';
                out += kEllipsis;
                out += ')';
                return;
            }
            out += '(';
            argList(g, depth);
            out += ')';
            return;
        }
        case '{': // "{lambda(int)#1}": part of a name
            out += '{';
            for (size_t k = 0; k < g.args.size(); ++k) {
                if (k) out += ", ";
                seq(g.args[k], depth, 0);
            }
            out += '}';
            return;
        default: // "[memory]", "[0]"
            out += p_.text(g.begin, g.end);
        }
    }

    // "a, b, …": arguments without brackets of their own shown, the others elided (a run of
    // elided ones reads as one "…").
    void argList(const Node& g, int depth) {
        bool first = true, lastElided = false;
        for (uint32_t a : g.args) {
            const Seq& q = p_.seqs[a];
            const std::string_view text = trimmed(p_.text(q.begin, q.end));
            bool plain = text.size() <= kSimpleArg;
            for (uint32_t n : q.nodes) plain = plain && !p_.nodes[n].group;
            if (plain || opened(a * 4)) {
                if (!first) out += ", ";
                if (plain) {
                    // "at::native::memory::LoadWithCast<1>" reads as "LoadWithCast<1>".
                    const uint32_t at = uint32_t(text.data() - p_.src.data());
                    uint32_t ns = qualifiers(at, at + uint32_t(text.size()));
                    if (ns && !opened(a * 4 + 2))
                        holes.push_back({a * 4 + 2, text.substr(0, ns)});
                    else
                        ns = 0;
                    out += text.substr(ns);
                } else {
                    seq(a, depth + 1, uint32_t(text.data() - p_.src.data()) - q.begin);
                    while (!out.empty() && out.back() == ' ') out.pop_back();
                }
                lastElided = false;
            } else {
                holes.push_back({a * 4, text});
                if (!lastElided) {
                    if (!first) out += ", ";
                    out += kEllipsis;
                }
                lastElided = true;
            }
            first = false;
        }
    }

    const Parsed& p_;
    const std::set<uint32_t>& open_;
};

bool plainName(std::string_view s) {
    return s.find_first_of("<({[") == std::string_view::npos;
}

} // namespace

std::string shortName(std::string_view full) {
    if (plainName(full)) return std::string(full);
    const Parsed p(full);
    if (!p.ok) return std::string(full);
    const std::set<uint32_t> none;
    Renderer r(p, none);
    return r.out.empty() ? std::string(full) : std::move(r.out);
}

namespace {

// Tells the names of one group (the same short form) apart: the first hole, in reading order,
// whose hidden text differs among them is shown in all of them; again until each reads apart.
// Names that nothing hidden tells apart (they differ in spacing only) keep their full form.
void separate(std::vector<size_t> group, std::span<const std::string_view> names,
              std::vector<std::string>& out) {
    struct Member {
        size_t index;
        std::unique_ptr<Parsed> parsed;
        std::set<uint32_t> open;
        std::vector<Hole> holes;
    };
    std::vector<std::vector<Member>> work(1);
    for (size_t i : group) work[0].push_back({i, std::make_unique<Parsed>(names[i]), {}, {}});
    auto render = [&](Member& m) {
        if (!m.parsed->ok) {
            out[m.index] = std::string(names[m.index]);
            m.holes.clear();
            return;
        }
        Renderer r(*m.parsed, m.open);
        out[m.index] = std::move(r.out);
        m.holes = std::move(r.holes);
    };
    for (Member& m : work[0]) render(m);
    while (!work.empty()) {
        std::vector<Member> g = std::move(work.back());
        work.pop_back();
        size_t holes = SIZE_MAX;
        for (const Member& m : g) holes = std::min(holes, m.holes.size());
        size_t k = 0;
        for (; k < holes; ++k) {
            bool differ = false;
            for (const Member& m : g) differ |= m.holes[k].hidden != g[0].holes[k].hidden;
            if (differ) break;
        }
        if (k >= holes) {
            for (const Member& m : g) out[m.index] = std::string(names[m.index]);
            continue;
        }
        std::unordered_map<std::string, std::vector<Member>> split;
        for (Member& m : g) {
            m.open.insert(m.holes[k].key);
            render(m);
            split[out[m.index]].push_back(std::move(m));
        }
        for (auto& [text, members] : split)
            if (members.size() > 1) work.push_back(std::move(members));
    }
}

} // namespace

std::vector<std::string> distinctShortNames(std::span<const std::string_view> names) {
    std::vector<std::string> out(names.size());
    std::unordered_map<std::string, std::vector<size_t>> byShort;
    for (size_t i = 0; i < names.size(); ++i) {
        out[i] = shortName(names[i]);
        byShort[out[i]].push_back(i);
    }
    for (auto& [text, group] : byShort)
        if (group.size() > 1) separate(std::move(group), names, out);
    // A name told apart from its group may now read as another name does (or as another's full
    // name): those keep their full names, until none is shared.
    for (bool again = true; again;) {
        again = false;
        std::unordered_map<std::string_view, size_t> seen;
        for (size_t i = 0; i < names.size(); ++i) {
            auto [it, fresh] = seen.emplace(out[i], i);
            if (fresh) continue;
            for (size_t j : {it->second, i})
                if (out[j] != names[j]) {
                    out[j] = std::string(names[j]);
                    again = true;
                }
            if (again) break;
        }
    }
    return out;
}

} // namespace strata
