#include "io/strata/read/strata_record_table.h"

#include "io/strata/read/strata_record_sink.h"
#include "io/strata/strata_chunks.h"

#include <cinttypes>

namespace strata::strata_reader {

namespace {

// A standard type's body read into the sink: RecordSink::load of what the body holds.
template <typename R> std::string loadStandard(RecordSink& sink, const uint8_t* body, uint32_t n) {
    return sink.load(fmt::readRecord<R>(body, n));
}

RecordTable makeStandard() {
    RecordTable t;
    fmt::forEachRecordType(fmt::StandardRecords{},
                           [&]<typename R>() { t.add<R>(&loadStandard<R>); });
    return t;
}

} // namespace

const RecordTable& RecordTable::standard() {
    static const RecordTable table = makeStandard();
    return table;
}

std::string bodySizeError(const RecordEntry& e, fmt::RecordType type, const uint8_t* body,
                          uint32_t bytes) {
    const fmt::BodyShape& s = e.shape;
    switch (s.kind) {
    case fmt::BodyShape::Fixed:
        return sprint("record type %u has %" PRIu32 " body bytes, expected %" PRIu32,
                      unsigned(type), bytes, s.head);
    case fmt::BodyShape::Prefixed:
        return sprint("%s record shorter than its %" PRIu32 "-byte %s", e.name, s.head,
                      e.prefixName);
    case fmt::BodyShape::Block: {
        if (bytes < s.head)
            return sprint("%s record of %" PRIu32 " bytes is shorter than its %" PRIu32
                          "-byte header",
                          e.name, bytes, s.head);
        const uint32_t rows = fmt::cell<uint32_t>(body + s.head - 4, 0);
        return sprint("%s of %" PRIu32 " rows has %" PRIu32 " body bytes, expected %" PRIu64,
                      e.name, rows, bytes, uint64_t(s.head) + uint64_t(rows) * s.row);
    }
    case fmt::BodyShape::Unknown:
        break;
    }
    return {};
}

} // namespace strata::strata_reader
