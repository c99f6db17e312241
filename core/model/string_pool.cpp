#include "model/string_pool.h"

#include <functional>

namespace strata {

namespace {
constexpr size_t kBlockSize = 1 << 20;
}

size_t StringPool::Hash::operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
}

StringPool::StringPool() {
    views_.emplace_back();
    index_.emplace(std::string_view(), kEmpty);
}

StringPool::StringPool(const StringPool& other) : StringPool() {
    views_.reserve(other.views_.size());
    index_.reserve(other.index_.size());
    for (size_t id = 1; id < other.views_.size(); ++id) intern(other.views_[id]);
}

StringPool& StringPool::operator=(const StringPool& other) {
    if (this != &other) *this = StringPool(other);
    return *this;
}

std::string_view StringPool::store(std::string_view s) {
    if (s.size() >= kBlockSize / 4) { // big strings get a block of their own, never appended to
        large_.emplace_back(s);
        return large_.back();
    }
    if (storage_.empty() || storage_.back().capacity() - tailUsed_ < s.size()) {
        storage_.emplace_back();
        storage_.back().reserve(kBlockSize);
        tailUsed_ = 0;
    }
    std::string& block = storage_.back();
    block.append(s); // within capacity: no reallocation, earlier views stay valid
    std::string_view v(block.data() + tailUsed_, s.size());
    tailUsed_ += s.size();
    return v;
}

StringId StringPool::intern(std::string_view s) {
    auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    const auto id = static_cast<StringId>(views_.size());
    const std::string_view stored = store(s);
    views_.push_back(stored);
    index_.emplace(stored, id);
    return id;
}

StringId StringPool::find(std::string_view s) const {
    auto it = index_.find(s);
    return it == index_.end() ? kNotFound : it->second;
}

size_t StringPool::memoryBytes() const {
    size_t bytes = views_.capacity() * sizeof(std::string_view);
    for (const auto& b : storage_) bytes += b.capacity();
    for (const auto& b : large_) bytes += b.capacity();
    bytes += index_.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
    bytes += index_.bucket_count() * sizeof(void*);
    return bytes;
}

} // namespace strata
