#include "model/arg_store.h"
#include "model/arg_arena.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace strata {

namespace {

uint64_t getVarint(const uint8_t*& p) {
    uint64_t v = 0;
    int shift = 0;
    while (true) {
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
        shift += 7;
    }
}

uint64_t zigzag(int64_t v) {
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}
int64_t unzigzag(uint64_t v) {
    return int64_t(v >> 1) ^ -int64_t(v & 1);
}

// A varint that must end before `end`: false when it does not.
bool getVarintIn(const uint8_t*& p, const uint8_t* end, uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        const uint8_t b = *p++;
        *v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

// The entry at p (key varint | type | value), which must lie before `end`: its key, its type,
// where its value starts, and p moved past it. False for an entry that runs past `end` or has a
// type no add*() writes (a damaged arena).
bool skipEntry(const uint8_t*& p, const uint8_t* end, uint64_t* key, uint8_t* type,
               const uint8_t** value) {
    if (!getVarintIn(p, end, key) || p >= end) return false;
    *type = *p++;
    *value = p;
    uint64_t n = 0;
    switch (static_cast<ArgValue::Type>(*type)) {
    case ArgValue::Type::Null:
        return true;
    case ArgValue::Type::Bool:
        n = 1;
        break;
    case ArgValue::Type::Int:
    case ArgValue::Type::UInt:
        return getVarintIn(p, end, &n);
    case ArgValue::Type::Double:
        n = 8;
        break;
    case ArgValue::Type::String:
    case ArgValue::Type::Json:
        if (!getVarintIn(p, end, &n)) return false;
        break;
    default:
        return false;
    }
    if (n > uint64_t(end - p)) return false;
    p += n;
    return true;
}

} // namespace

std::string ArgValue::toString() const {
    char buf[64];
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return b ? "true" : "false";
    case Type::Int:
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(i));
        return buf;
    case Type::UInt:
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(u));
        return buf;
    case Type::Double:
        std::snprintf(buf, sizeof buf, "%.17g", d);
        return buf;
    case Type::String:
        return s;
    case Type::Json:
        return s;
    }
    return {};
}

double ArgValue::toDouble() const {
    switch (type) {
    case Type::Int:
        return double(i);
    case Type::UInt:
        return double(u);
    case Type::Double:
        return d;
    case Type::Bool:
        return b ? 1.0 : 0.0;
    default:
        return 0.0;
    }
}

void ArgStore::putVarint(uint64_t v) {
    while (v >= 0x80) {
        bytes_.push_back(uint8_t(v) | 0x80);
        v >>= 7;
    }
    bytes_.push_back(uint8_t(v));
}

void ArgStore::putKey(StringId key, uint8_t type) {
    putVarint(key);
    bytes_.push_back(type);
}

void ArgStore::begin() {
    pendingStart_ = bytes_.size();
    building_ = true;
}

void ArgStore::addNull(StringId key) {
    putKey(key, uint8_t(ArgValue::Type::Null));
}
void ArgStore::addBool(StringId key, bool v) {
    putKey(key, uint8_t(ArgValue::Type::Bool));
    bytes_.push_back(v ? 1 : 0);
}
void ArgStore::addInt(StringId key, int64_t v) {
    putKey(key, uint8_t(ArgValue::Type::Int));
    putVarint(zigzag(v));
}
void ArgStore::addUInt(StringId key, uint64_t v) {
    putKey(key, uint8_t(ArgValue::Type::UInt));
    putVarint(v);
}
void ArgStore::addDouble(StringId key, double v) {
    putKey(key, uint8_t(ArgValue::Type::Double));
    uint8_t raw[8];
    std::memcpy(raw, &v, 8);
    bytes_.append(raw, 8);
}
void ArgStore::addString(StringId key, std::string_view v) {
    putKey(key, uint8_t(ArgValue::Type::String));
    putVarint(v.size());
    bytes_.append(reinterpret_cast<const uint8_t*>(v.data()), v.size());
}
void ArgStore::addJson(StringId key, std::string_view v) {
    putKey(key, uint8_t(ArgValue::Type::Json));
    putVarint(v.size());
    bytes_.append(reinterpret_cast<const uint8_t*>(v.data()), v.size());
}

ArgSetId ArgStore::finish() {
    building_ = false;
    if (bytes_.size() == pendingStart_) return kNoArgs;
    const uint8_t* p = bytes_.data() + pendingStart_;
    const size_t n = bytes_.size() - pendingStart_;
    // A word-at-a-time multiply-xorshift hash of the set's bytes.
    uint64_t h = n * 0x9E3779B97F4A7C15ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, p + i, n - i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    ArgSetId& slot = recent_[h % kDedupSlots];
    if (slot != UINT32_MAX && offsets_[slot + 1] - offsets_[slot] == n &&
        std::memcmp(bytes_.data() + offsets_[slot], p, n) == 0) {
        bytes_.resize(pendingStart_); // the same set is stored already
        return slot;
    }
    // Sets are contiguous: set i spans [offsets_[i], offsets_[i + 1]).
    offsets_.push_back(bytes_.size());
    slot = static_cast<ArgSetId>(offsets_.size() - 2);
    return slot;
}

void ArgStore::cancel() {
    bytes_.resize(pendingStart_);
    building_ = false;
}

void ArgStore::appendFrom(const ArgStore& other, ArgSetId id) {
    if (id == kNoArgs || id >= other.setCount()) return;
    const size_t b = other.offsets_[id];
    const size_t e = other.offsets_[id + 1];
    // Copy through a temporary: `other` may be *this.
    std::vector<uint8_t> tmp(other.bytes_.data() + b, other.bytes_.data() + e);
    bytes_.append(tmp.data(), tmp.size());
}

ArgSetId ArgStore::copyFrom(const ArgStore& other, ArgSetId id,
                            const std::vector<StringId>& keyOf) {
    if (id == kNoArgs || id >= other.setCount()) return kNoArgs;
    const uint8_t* p = other.bytes_.data() + other.offsets_[id];
    const uint8_t* const end = other.bytes_.data() + other.offsets_[id + 1];
    begin();
    while (p < end) {
        uint64_t key;
        uint8_t type;
        const uint8_t* value;
        if (!skipEntry(p, end, &key, &type, &value)) break; // (never: this store wrote it)
        putKey(key < keyOf.size() ? keyOf[key] : StringId(key), type);
        bytes_.append(value, size_t(p - value));
    }
    return finish();
}

namespace {

template <typename F> void forEachEntry(const uint8_t* p, const uint8_t* end, F&& f) {
    while (p < end) {
        const auto key = static_cast<StringId>(getVarint(p));
        const auto type = static_cast<ArgValue::Type>(*p++);
        ArgValue v;
        v.type = type;
        switch (type) {
        case ArgValue::Type::Null:
            break;
        case ArgValue::Type::Bool:
            v.b = *p++ != 0;
            break;
        case ArgValue::Type::Int:
            v.i = unzigzag(getVarint(p));
            break;
        case ArgValue::Type::UInt:
            v.u = getVarint(p);
            break;
        case ArgValue::Type::Double:
            std::memcpy(&v.d, p, 8);
            p += 8;
            break;
        case ArgValue::Type::String:
        case ArgValue::Type::Json: {
            const auto n = getVarint(p);
            v.s.assign(reinterpret_cast<const char*>(p), n);
            p += n;
            break;
        }
        }
        if (!f(key, std::move(v))) return;
    }
}

} // namespace

std::string checkArgArena(const PodVector<uint8_t>& bytes, const PodVector<uint64_t>& offsets,
                          size_t strings, size_t first, size_t last) {
    for (size_t set = first; set < last && set + 1 < offsets.size(); ++set) {
        if (offsets[set + 1] < offsets[set] || offsets[set + 1] > bytes.size())
            return "arg set " + std::to_string(set) + " lies outside the arg bytes";
        const uint8_t* p = bytes.data() + offsets[set];
        const uint8_t* const end = bytes.data() + offsets[set + 1];
        while (p < end) {
            uint64_t key;
            uint8_t type;
            const uint8_t* value;
            if (!skipEntry(p, end, &key, &type, &value) || key >= strings)
                return "arg set " + std::to_string(set) + " is damaged";
        }
    }
    return {};
}

std::vector<Arg> ArgStore::decode(ArgSetId id) const {
    std::vector<Arg> out;
    if (id == kNoArgs || id >= setCount()) return out;
    const size_t b = offsets_[id];
    const size_t e = offsets_[id + 1];
    forEachEntry(bytes_.data() + b, bytes_.data() + e, [&](StringId k, ArgValue&& v) {
        out.push_back(Arg{k, std::move(v)});
        return true;
    });
    return out;
}

bool ArgStore::find(ArgSetId id, StringId key, ArgValue* out) const {
    if (id == kNoArgs || id >= setCount()) return false;
    const size_t b = offsets_[id];
    const size_t e = offsets_[id + 1];
    bool found = false;
    forEachEntry(bytes_.data() + b, bytes_.data() + e, [&](StringId k, ArgValue&& v) {
        if (k != key) return true;
        if (out) *out = std::move(v);
        found = true;
        return false;
    });
    return found;
}

void ArgStore::shrink() {
    bytes_.shrink_to_fit();
    offsets_.shrink_to_fit();
}

} // namespace strata
