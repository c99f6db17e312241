// Pass 2 of a HalfLoader: each chunk's CRC and sequence number checked, then its rows written
// straight into the tracks' columns at the places pass 1 sized, checking every slice row's kind
// and string reference as it goes. The columns are backed (faulted in) just ahead of the writes
// while the file pages read are handed back, so the resident set grows by the columns as it
// shrinks by the file.
#include "io/strata/read/strata_half_loader.h"

#include "util/populate.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace strata::strata_reader {

namespace {
constexpr size_t kBackStep = 1 << 13; // rows
} // namespace

bool HalfLoader::write(const RecordSink& sink, const std::vector<uint64_t>& definedAt) {
    names_ = sink.stringMap().data();
    definedAt_ = definedAt.data();
    nameCount_ = uint32_t(definedAt.size());
    for (uint8_t k = 0; k <= fmt::kMaxSliceKind; ++k) category_[k] = sink.category(SliceKind(k));
    const Steps& steps = writeSteps();
    startPass(0.5, true);
    for (size_t i = first_; i < last_ && !*stop_; ++i) {
        if (!checkChunk(data_, chunks_[i], uint32_t(i), i >= rowsFrom).empty() ||
            !eachRecord(i, steps))
            return false;
        afterChunk(i);
    }
    return true;
}

// writeAs<R> for each standard record type R, pass() for any other type byte.
const HalfLoader::Steps& HalfLoader::writeSteps() {
    static const Steps steps = [] {
        Steps s;
        s.fill(&HalfLoader::pass);
        fmt::forEachRecordType(fmt::StandardRecords{}, [&]<typename R>() {
            s[uint8_t(R::kType)] = &HalfLoader::writeAs<R>;
        });
        return s;
    }();
    return steps;
}

// A record of type R: its rows written (its size checked again: the file may have changed since
// pass 1); the other records were applied between the passes.
template <typename R> bool HalfLoader::writeAs(RT type, const uint8_t* p, uint32_t bytes) {
    if constexpr (R::kUse == fmt::RecordUse::TrackRows) {
        record_ = p;
        return R::Body::kShape.fits(p, bytes) && writeRows(fmt::readRecord<R>(p, bytes));
    } else {
        return pass(type, p, bytes);
    }
}

bool HalfLoader::pass(RT, const uint8_t*, uint32_t) {
    return true;
}

// Backs k's slice columns up to row `upTo` and a step beyond, in one call per column (cheaper
// than a fault per page), as pass 2 reaches them: meanwhile the file pages read are handed back,
// so the resident set grows by the columns as it shrinks by the file.
void HalfLoader::backColumns(KeyState& k, size_t upTo) {
    const size_t to = std::min(k.sliceEnd, std::max(upTo, k.backed + kBackStep));
    SliceColumns& c = *k.out.slices;
    auto back = [&](auto& column) {
        if (to > k.backed) populateForWrite(&column[k.backed], (to - k.backed) * sizeof(column[0]));
    };
    back(c.start);
    back(c.dur);
    back(c.name);
    back(c.category);
    back(c.args);
    back(c.extra);
    back(c.kind);
    back(c.flags);
    k.backed = to;
}

// The same for this half's extras, up to `upTo`.
void HalfLoader::backExtras(size_t upTo) {
    const size_t to = std::min(extras, std::max(upTo, extrasBacked_ + kBackStep));
    if (to > extrasBacked_)
        populateForWrite(extraOut + extrasBacked_, (to - extrasBacked_) * sizeof(SliceExtra));
    extrasBacked_ = to;
}

// The columns every slice row fills the same way; returns where the rows start, or SIZE_MAX
// when the track has no room left for them (the file changed since pass 1), or a row has an
// unknown kind or names a string not defined before its record (record_; the checks of the
// sequential reader, which then reads the file).
size_t HalfLoader::sliceRows(KeyState& k, const uint8_t* start, const uint8_t* end,
                             const uint8_t* name, const uint8_t* kind, uint32_t n) {
    if (k.slice + n > k.sliceEnd) return SIZE_MAX;
    if (k.slice + n > k.backed) backColumns(k, k.slice + n);
    uint8_t maxKind = 0;
    for (uint32_t i = 0; i < n; ++i) maxKind = std::max(maxKind, kind[i]);
    if (!kindOk(maxKind)) return SIZE_MAX;
    SliceColumns& c = *k.out.slices;
    const size_t at = k.slice;
    uint32_t outside = 0; // names past the table
    uint64_t newest = 0;  // where the newest named string was defined
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t id = fmt::cell<uint32_t>(name, i), known = id < nameCount_ ? id : 0;
        outside |= id - known;
        newest = std::max(newest, definedAt_[known]);
        c.name[at + i] = names_[known];
    }
    if (outside != 0 || newest >= uint64_t(record_ - data_)) return SIZE_MAX;
    std::memcpy(&c.start[at], start, 8 * size_t(n));
    for (uint32_t i = 0; i < n; ++i)
        c.dur[at + i] =
            sliceDuration(c.start[at + i], fmt::cell<int64_t>(end, i), negativeDurations);
    std::memcpy(&c.kind[at], kind, n);
    for (uint32_t i = 0; i < n; ++i) c.category[at + i] = category_[kind[i]];
    std::fill_n(&c.args[at], n, kNoArgs);
    std::fill_n(&c.flags[at], n, uint8_t(0));
    k.slice += n;
    k.seq += n;
    return at;
}

// False when the track has no room left for it (the file changed since pass 1).
bool HalfLoader::addEdge(KeyState& k, const RawEdge& e) {
    if (k.edge == k.edgeEnd) return false;
    k.out.edges[k.edge++] = e;
    return true;
}

bool HalfLoader::writeRows(const fmt::CpuSliceColumns& r) {
    const uint32_t ki = key(KeyKind::Thread, r.pid, r.tid);
    KeyState& k = keys[ki];
    const size_t at = sliceRows(k, r.start, r.end, r.name, r.kind, r.rows);
    if (at == SIZE_MAX) return false;
    if (nextExtra_ + r.rows > extrasBacked_) backExtras(nextExtra_ + r.rows);
    uint32_t* extraColumn = &k.out.slices->extra[at];
    for (uint32_t i = 0; i < r.rows; ++i) {
        const int64_t corr = fmt::cell<int64_t>(r.correlation, i);
        if (corr < 0) {
            extraColumn[i] = kNoExtra;
            continue;
        }
        if (nextExtra_ == extras) return false;
        extraOut[nextExtra_] = SliceExtra{.correlation = corr};
        extraColumn[i] = firstExtra + uint32_t(nextExtra_++);
    }
    for (uint32_t i = 0; i < r.rows; ++i)
        if (const int32_t rc = fmt::cell<int32_t>(r.returnCode, i); rc != 0)
            args.push_back({ki, at + i, rc});
    return true;
}

bool HalfLoader::writeRows(const fmt::GpuOpColumns& r) {
    if (r.rows == 0) return true;
    KeyState& k = keys[gpuKey(r.activity)];
    for (uint32_t i = 1; i < r.rows; ++i)
        if (std::memcmp(r.activityOf(i), r.activity, fmt::kGpuStreamKeyBytes) != 0) return false;
    if (extras - nextExtra_ < r.rows) return false;
    const size_t at = sliceRows(k, r.start, r.end, r.name, r.kind, r.rows);
    if (at == SIZE_MAX) return false;
    if (nextExtra_ + r.rows > extrasBacked_) backExtras(nextExtra_ + r.rows);
    uint32_t* extraColumn = &k.out.slices->extra[at];
    SliceExtra* e = extraOut + nextExtra_;
    for (uint32_t i = 0; i < r.rows; ++i) {
        e[i] = SliceExtra{.correlation = fmt::cell<int64_t>(r.correlation, i)};
        extraColumn[i] = firstExtra + uint32_t(nextExtra_ + i);
    }
    gpuValues_.internRun(r.activity, r.rows, gpu, [&](uint32_t i, uint32_t v) { e[i].gpu = v; });
    nextExtra_ += r.rows;
    return true;
}

bool HalfLoader::writeRows(const fmt::CpuBeginRecord& r) {
    KeyState& k = threadKey(r.pid, r.tid);
    RawEdge e;
    e.slice.start = r.ts;
    e.slice.name = names_[r.name];
    e.slice.kind = SliceKind(r.kind);
    e.slice.category = category_[r.kind];
    e.slice.seq = k.seq++;
    return addEdge(k, e);
}

bool HalfLoader::writeRows(const fmt::CpuEndRecord& r) {
    RawEdge e;
    e.slice.start = r.ts;
    e.isEnd = true;
    return addEdge(threadKey(r.pid, r.tid), e);
}

// An async slice: one row of kind UserAnnotation.
bool HalfLoader::writeRows(const fmt::AsyncSliceRecord& r) {
    KeyState& k = keys[key(KeyKind::Async, r.pid, r.name, r.id)];
    const uint8_t kind = uint8_t(SliceKind::UserAnnotation);
    auto bytes = [](const auto& field) { return reinterpret_cast<const uint8_t*>(&field); };
    const size_t i = sliceRows(k, bytes(r.start), bytes(r.end), bytes(r.name), &kind, 1);
    if (i == SIZE_MAX) return false;
    k.out.slices->extra[i] = kNoExtra;
    return true;
}

bool HalfLoader::writeRows(const fmt::InstantRecord& r) {
    KeyState& k = threadKey(r.pid, r.tid);
    if (k.instant == k.instantEnd) return false;
    InstantColumns& in = *k.out.instants;
    const size_t i = k.instant++;
    in.ts[i] = r.ts;
    in.name[i] = names_[r.name];
    in.category[i] = category_[uint8_t(SliceKind::Instant)];
    in.args[i] = kNoArgs;
    return true;
}

bool HalfLoader::writeRows(const fmt::CounterRecord& r) {
    if (!std::isfinite(r.value)) { // as RecordSink::load skips it
        ++nonFiniteCounters;
        return true;
    }
    KeyState& k = keys[key(KeyKind::Counter, r.pid, r.name)];
    if (k.counter == k.counterEnd) return false;
    const size_t i = k.counter++;
    k.out.counter->ts[i] = r.ts;
    k.out.counter->value[i] = r.value;
    return true;
}

} // namespace strata::strata_reader
