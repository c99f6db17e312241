#pragma once
// Interned strings: every name, category and key is stored once and referred to by a 32-bit id.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace strata {

using StringId = uint32_t;

class StringPool {
public:
    static constexpr StringId kEmpty = 0; // id 0 is always ""

    StringPool();
    // A copy holds its own text (the views point into it), with the same ids.
    StringPool(const StringPool& other);
    StringPool& operator=(const StringPool& other);
    StringPool(StringPool&&) noexcept = default; // the blocks move, their addresses stay
    StringPool& operator=(StringPool&&) noexcept = default;
    StringId intern(std::string_view s);
    // Id of s if it was interned, kNotFound otherwise.
    static constexpr StringId kNotFound = UINT32_MAX;
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const { return views_[id]; }
    size_t size() const { return views_.size(); }
    size_t memoryBytes() const;

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept;
    };
    // Stable addresses: blocks of text, the last one filled up to tailUsed_ (appends stay
    // within its capacity), and strings of a quarter block or more, each on its own.
    std::deque<std::string> storage_;
    size_t tailUsed_ = 0;
    std::deque<std::string> large_;
    std::vector<std::string_view> views_;
    std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> index_;
    std::string_view store(std::string_view s);
};

} // namespace strata
