#include "io/formats/sqlite/string_table.h"

namespace strata {

bool SqliteStringTable::load(SqliteDb& db, const std::string& sql, TraceBuilder& builder) {
    empty_ = builder.intern("");
    SqliteStatement s = db.prepare(sql);
    if (!s.valid()) return false;
    while (s.step()) {
        const std::string_view text = s.text(1);
        strings_[s.integer(0)] = {builder.intern(text), std::string(text)};
    }
    return s.error().empty();
}

StringId SqliteStringTable::id(int64_t key) const {
    const auto it = strings_.find(key);
    return it != strings_.end() ? it->second.first : empty_;
}

std::string_view SqliteStringTable::text(int64_t key) const {
    const auto it = strings_.find(key);
    return it != strings_.end() ? std::string_view(it->second.second) : std::string_view();
}

} // namespace strata
