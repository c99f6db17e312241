#pragma once
// Command lines as a POSIX shell splits them into words, without running a shell: the Launch
// dialog's arguments field and the stored command of a launch configuration. Quoting and
// escapes follow POSIX sh (XCU 2.2): '...' keeps everything literally; "..." keeps everything
// but \ before $ ` " \ and newline; an unquoted \ quotes the next character; \<newline> is a
// line continuation. No expansion of any kind ($VAR, ~, globs, $(...)) is done: those characters
// stay literal, so what the dialog shows is exactly what the program receives.
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct ShellSplit {
    std::vector<std::string> words;
    std::string error;  // empty when the text is complete
    size_t errorAt = 0; // byte offset of the opening quote / trailing backslash
    bool ok() const { return error.empty(); }
};

// "a 'b c' \"d\\\"e\" f\\ g ''" -> {a, "b c", d"e, "f g", ""}. An unterminated quote or a
// trailing backslash is an error that names what is open and where.
ShellSplit splitShellWords(std::string_view text);

// One word quoted so that splitShellWords gives it back: as is when it needs no quoting,
// otherwise in single quotes ('it'\''s' for embedded single quotes); "" for an empty word.
std::string quoteShellWord(std::string_view word);
// Words joined by spaces, each quoted as needed: splitShellWords(joinShellWords(w)) == w.
std::string joinShellWords(const std::vector<std::string>& words);

} // namespace strata
