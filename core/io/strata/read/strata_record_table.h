#pragma once
// The record types a load reads, by type byte: for each its name, the shape its body must have
// and the function that reads a body into the RecordSink. standard() holds the types of
// io/strata/strata_records.h, each read by RecordSink::load; a copy can take more (a test's own
// types, declared the same way), which both readers then read in file order like the standard
// types. A type the table does not hold is skipped and counted. Internal to the reader.
#include "io/strata/strata_records.h"

#include <array>
#include <cstdint>
#include <string>

namespace strata::strata_reader {

class RecordSink;

// Reads a body whose size fits its type's shape into the sink: empty, or what is wrong.
using RecordLoad = std::string (*)(RecordSink& sink, const uint8_t* body, uint32_t bytes);

struct RecordEntry {
    const char* name = nullptr;  // as in messages ("CpuSliceBlock of 3 rows has ...")
    format::BodyShape shape;     // kind Unknown: not in the table
    const char* prefixName = ""; // a Prefixed body's fields before its string ("id"), for messages
    RecordLoad load = nullptr;   // null: not in the table
};

class RecordTable {
public:
    // The types of strata_records.h (StandardRecords).
    static const RecordTable& standard();

    // Adds record type R (a struct declared as those of strata_records.h), read by `load`, or
    // replaces the type's entry.
    template <typename R> void add(RecordLoad load) {
        RecordEntry& e = entries_[uint8_t(R::kType)];
        e.name = R::kName;
        e.shape = R::Body::kShape;
        if constexpr (R::Body::kShape.kind == format::BodyShape::Prefixed)
            e.prefixName = R::kPrefixName;
        e.load = load;
    }

    const RecordEntry& operator[](format::RecordType type) const { return entries_[uint8_t(type)]; }

private:
    std::array<RecordEntry, 256> entries_{};
};

// What is wrong with a body of `bytes` bytes that does not fit the shape of `e` (of type
// `type`), as the sequential reader reports it: "record type 3 has 11 body bytes, expected 12",
// "String record shorter than its 4-byte id", "CpuSliceBlock of 3 rows has 100 body bytes,
// expected 119".
std::string bodySizeError(const RecordEntry& e, format::RecordType type, const uint8_t* body,
                          uint32_t bytes);

} // namespace strata::strata_reader
