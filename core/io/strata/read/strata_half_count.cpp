// Pass 1 of a HalfLoader: what its half holds, track by track, and the checks that need no
// column: every record's body size, the kinds and string references of NVTX records, instants
// and counters, the string ids the half defines.
#include "io/strata/read/strata_half_loader.h"

#include <cmath>

namespace strata::strata_reader {

bool HalfLoader::count() {
    const Steps& steps = countSteps();
    startPass(0.0, false);
    for (size_t i = first_; i < last_; ++i) {
        if (*stop_ || !eachRecord(i, steps)) return false;
        afterChunk(i);
    }
    return true;
}

// countAs<R> for each standard record type R, keep() for any other type byte.
const HalfLoader::Steps& HalfLoader::countSteps() {
    static const Steps steps = [] {
        Steps s;
        s.fill(&HalfLoader::keep);
        fmt::forEachRecordType(fmt::StandardRecords{}, [&]<typename R>() {
            s[uint8_t(R::kType)] = &HalfLoader::countAs<R>;
        });
        return s;
    }();
    return steps;
}

// A record of type R: its body size checked, then its rows counted, or the record kept for the
// calling thread.
template <typename R> bool HalfLoader::countAs(RT type, const uint8_t* p, uint32_t bytes) {
    if (!R::Body::kShape.fits(p, bytes)) return false;
    if constexpr (R::kUse == fmt::RecordUse::TrackRows) {
        return countRows(fmt::readRecord<R>(p, bytes));
    } else {
        // A string defined twice, or far out, is left to the sequential reader.
        if constexpr (R::kType == RT::String)
            if (const uint32_t id = fmt::readRecord<R>(p, bytes).id; id == 0 || !defined.add(id))
                return false;
        return keep(type, p, bytes);
    }
}

bool HalfLoader::keep(RT type, const uint8_t* p, uint32_t bytes) {
    rare.push_back({type, p, bytes});
    return true;
}

// Slice rows are counted from their header (and a CPU block's correlation column, for the
// extras): their kinds and names are checked in pass 2, where they are read anyway, so that this
// pass leaves most of the file's pages alone.
bool HalfLoader::countRows(const fmt::CpuSliceColumns& c) {
    for (uint32_t i = 0; i < c.rows; ++i) extras += fmt::cell<int64_t>(c.correlation, i) >= 0;
    threadKey(c.pid, c.tid).n.slices += c.rows;
    return true;
}

// A block's track is its first op's stream; pass 2 checks the others are on it.
bool HalfLoader::countRows(const fmt::GpuOpColumns& c) {
    if (c.rows == 0) return true;
    extras += c.rows;
    keys[gpuKey(c.activity)].n.slices += c.rows;
    return true;
}

bool HalfLoader::countRows(const fmt::CpuBeginRecord& r) {
    if (!kindOk(r.kind)) return false;
    ref(r.name);
    KeyState& k = threadKey(r.pid, r.tid);
    ++k.n.begins;
    ++k.n.edges;
    return true;
}

bool HalfLoader::countRows(const fmt::CpuEndRecord& r) {
    ++threadKey(r.pid, r.tid).n.edges;
    return true;
}

bool HalfLoader::countRows(const fmt::AsyncSliceRecord& r) {
    ref(r.name);
    ++keys[key(KeyKind::Async, r.pid, r.name, r.id)].n.slices;
    return true;
}

bool HalfLoader::countRows(const fmt::InstantRecord& r) {
    ref(r.name);
    ++threadKey(r.pid, r.tid).n.instants;
    return true;
}

bool HalfLoader::countRows(const fmt::CounterRecord& r) {
    ref(r.name);
    if (!std::isfinite(r.value)) return true; // skipped in pass 2 (no track of its own)
    ++keys[key(KeyKind::Counter, r.pid, r.name)].n.counterSamples;
    return true;
}

} // namespace strata::strata_reader
