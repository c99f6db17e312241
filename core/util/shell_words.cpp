#include "util/shell_words.h"

#include <cstdint>

namespace strata {
namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}

} // namespace

ShellSplit splitShellWords(std::string_view text) {
    ShellSplit out;
    std::string word;
    bool inWord = false; // a word has started (even an empty one: '' or "")
    size_t i = 0;
    const size_t n = text.size();
    while (i < n) {
        const char c = text[i];
        if (isBlank(c)) {
            if (inWord) out.words.push_back(std::move(word));
            word.clear();
            inWord = false;
            ++i;
        } else if (c == '\\') {
            if (i + 1 >= n) {
                out.error = "a backslash at the end escapes nothing";
                out.errorAt = i;
                return out;
            }
            if (text[i + 1] != '\n') { // \<newline> continues the line
                word += text[i + 1];
                inWord = true;
            }
            i += 2;
        } else if (c == '\'') {
            const size_t close = text.find('\'', i + 1);
            if (close == std::string_view::npos) {
                out.error =
                    "the single quote at position " + std::to_string(i + 1) + " is never closed";
                out.errorAt = i;
                return out;
            }
            word.append(text.substr(i + 1, close - i - 1));
            inWord = true;
            i = close + 1;
        } else if (c == '"') {
            const size_t open = i++;
            bool closed = false;
            while (i < n) {
                const char d = text[i];
                if (d == '"') {
                    closed = true;
                    ++i;
                    break;
                }
                if (d == '\\' && i + 1 < n) {
                    const char e = text[i + 1];
                    if (e == '$' || e == '`' || e == '"' || e == '\\') {
                        word += e;
                        i += 2;
                        continue;
                    }
                    if (e == '\n') {
                        i += 2;
                        continue;
                    }
                }
                word += d;
                ++i;
            }
            if (!closed) {
                out.error =
                    "the double quote at position " + std::to_string(open + 1) + " is never closed";
                out.errorAt = open;
                return out;
            }
            inWord = true;
        } else {
            word += c;
            inWord = true;
            ++i;
        }
    }
    if (inWord) out.words.push_back(std::move(word));
    return out;
}

std::string quoteShellWord(std::string_view word) {
    if (word.empty()) return "''";
    bool plain = true;
    for (const char c : word) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '/' ||
                          c == ',' || c == ':' || c == '=' || c == '+' || c == '@' || c == '%' ||
                          uint8_t(c) >= 0x80;
        plain = plain && safe;
    }
    if (plain) return std::string(word);
    std::string q = "'";
    for (const char c : word) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    q += '\'';
    return q;
}

std::string joinShellWords(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) {
        if (!s.empty()) s += ' ';
        s += quoteShellWord(w);
    }
    return s;
}

} // namespace strata
