#pragma once
// Args kept compactly and decoded on demand.
//
// An arg set is a run of entries in one byte arena: varint(key id) | type | payload.
// Keys are interned in the trace's StringPool; string values are stored inline (most are unique).
// Nested JSON objects/arrays are kept as their JSON text (type Json).
#include "model/string_pool.h"
#include "util/pod_vector.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace strata {

using ArgSetId = uint32_t;
constexpr ArgSetId kNoArgs = UINT32_MAX;

struct ArgValue {
    enum class Type : uint8_t { Null, Bool, Int, UInt, Double, String, Json };
    Type type = Type::Null;
    bool b = false;
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0.0;
    std::string s; // String or Json text

    std::string toString() const; // human-readable / JSON-ish rendering
    bool isNumber() const {
        return type == Type::Int || type == Type::UInt || type == Type::Double;
    }
    double toDouble() const;
};

struct Arg {
    StringId key = 0;
    ArgValue value;
};

class ArgStore {
public:
    ArgStore() { offsets_.push_back(0); }
    // Building: begin(), add*()..., finish() -> id (kNoArgs if nothing was added).
    void begin();
    void addNull(StringId key);
    void addBool(StringId key, bool v);
    void addInt(StringId key, int64_t v);
    void addUInt(StringId key, uint64_t v);
    void addDouble(StringId key, double v);
    void addString(StringId key, std::string_view v);
    void addJson(StringId key, std::string_view jsonText);
    ArgSetId finish();
    // Abandon the set being built.
    void cancel();

    // Appends all entries of `other`'s set `id` into the set being built (used to merge E args).
    void appendFrom(const ArgStore& other, ArgSetId id);
    // Copies `other`'s set `id` whole into this store, each key k written as keyOf[k] (another
    // trace's string ids in this one's pool: traces merged into one). kNoArgs stays kNoArgs.
    ArgSetId copyFrom(const ArgStore& other, ArgSetId id, const std::vector<StringId>& keyOf);

    // Reading.
    std::vector<Arg> decode(ArgSetId id) const;
    bool find(ArgSetId id, StringId key, ArgValue* out) const;
    size_t setCount() const { return offsets_.size() - 1; }
    size_t memoryBytes() const {
        return bytes_.capacity() + offsets_.capacity() * sizeof(uint64_t);
    }
    void shrink();

private:
    friend class TraceSnapshot; // io/snapshot: the arena written and read whole
    PodVector<uint8_t> bytes_;
    PodVector<uint64_t> offsets_; // set i spans [offsets_[i], offsets_[i + 1]); [0] = 0
    size_t pendingStart_ = 0;
    bool building_ = false;
    // Recently finished sets by content hash: an identical set (same keys and values, e.g. the
    // launch configuration of the same kernel) is stored once. Small and fixed, never grows.
    static constexpr size_t kDedupSlots = 4096;
    std::vector<ArgSetId> recent_ = std::vector<ArgSetId>(kDedupSlots, UINT32_MAX);
    void putVarint(uint64_t v);
    void putKey(StringId key, uint8_t type);
};

} // namespace strata
