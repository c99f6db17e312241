#include "io/strata/strata_parallel_load.h"

#include "model/edge_matcher.h"
#include "util/parallel_for.h"
#include "util/phase_timer.h"
#include "util/populate.h"
#include "util/value_index_set.h"

#include <atomic>
#include <cstring>
#include <exception>
#include <thread>
#include <unordered_map>

namespace strata::strata_reader {

namespace {

using RT = fmt::RecordType;

template <typename T> T at(const uint8_t* p, size_t offset) {
    T v;
    std::memcpy(&v, p + offset, sizeof v);
    return v;
}

// Field offsets in the record bodies (io/strata_format.h).
namespace off {
constexpr size_t kCpuBeginName = 24, kCpuBeginKind = 28;
constexpr size_t kAsyncName = 32;
constexpr size_t kInstantName = 24;
constexpr size_t kCounterName = 8, kCounterTs = 12, kCounterValue = 20;
} // namespace off

// A track as one half's records name it (string ids as in the file).
enum class KeyKind : uint8_t { Thread, Gpu, Counter, Async };
struct TrackKey {
    KeyKind kind;
    int64_t a = 0, b = 0; // (pid, tid) | (device, stream) | (pid, name) | (pid, name)
    uint64_t c = 0;       // async id
    friend bool operator==(const TrackKey&, const TrackKey&) = default;
};

struct KeyState {
    TrackKey key;
    TraceBuilder::PrefillCounts n; // what this half holds
    TrackId track = UINT32_MAX;
    TraceBuilder::Prefilled out{};
    size_t slice = 0, edge = 0, counter = 0, instant = 0;             // where this half writes next
    size_t sliceEnd = 0, edgeEnd = 0, counterEnd = 0, instantEnd = 0; // and where it stops
    uint32_t seq = 0;                                                 // next seq (slices and B's)
    size_t backed = 0; // slice columns backed up to here (pass 2)
};

struct RareRecord {
    RT type;
    const uint8_t* body;
    uint32_t bytes;
};

struct PendingArg {
    uint32_t key;
    size_t slice;
    int32_t returnCode;
};

// Key -> index in the order keys were first seen: an open-addressing table, so that the usual
// hit costs one hash and one comparison, with no branch that depends on which key it is.
class KeyIndex {
public:
    template <typename Make> uint32_t get(const TrackKey& k, Make&& make) {
        const uint64_t h = (uint64_t(k.a) * 0x9E3779B97F4A7C15ull) ^
                           (uint64_t(k.b) * 0xC2B2AE3D27D4EB4Full) ^ (k.c * 0x165667B19E3779F9ull) ^
                           uint64_t(k.kind);
        for (size_t i = (h ^ (h >> 32)) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.index != kEmpty && s.key == k) return s.index;
            if (s.index == kEmpty) {
                s = Slot{k, make()};
                if (++used_ * 2 > slots_.size()) grow();
                return s.index;
            }
        }
    }

private:
    struct Slot {
        TrackKey key{};
        uint32_t index = kEmpty;
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;
    std::vector<Slot> slots_ = std::vector<Slot>(64);
    size_t mask_ = 63;
    size_t used_ = 0;

    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        used_ = 0;
        for (const Slot& s : old)
            if (s.index != kEmpty) get(s.key, [&] { return s.index; });
    }
};

// Equal GPU activity values stored once, found by their bytes in the record: hashed eight bytes
// at a time (independent multiplies), compared word by word, decoded only when new.
class GpuValuesByBytes {
public:
    // Interns the n values stored kGpuActivityBytes apart from `raw`, calling out(i, index):
    // each value's table slot is fetched a few values ahead, and the stored bytes it points to
    // half as far ahead, so the misses of several values overlap.
    template <typename Out>
    void internRun(const uint8_t* raw, uint32_t n, PodVector<GpuActivity>& store, Out&& out) {
        constexpr uint32_t kAhead = 8, kRing = 16;
        uint64_t h[kRing];
        auto valueAt = [&](uint32_t i) { return raw + size_t(i) * fmt::kGpuActivityBytes; };
        for (uint32_t i = 0; i < n + kAhead; ++i) {
            if (i < n) {
                h[i % kRing] = hash(valueAt(i));
                set_.prefetch(h[i % kRing]);
            }
            if (i >= kAhead / 2 && i - kAhead / 2 < n) {
                const uint32_t k = set_.firstAt(h[(i - kAhead / 2) % kRing]);
                if (k != ValueIndexSet::kNone) {
                    __builtin_prefetch(bytesOf(k));
                    __builtin_prefetch(bytesOf(k) + 64);
                }
            }
            if (i >= kAhead)
                out(i - kAhead, intern(valueAt(i - kAhead), h[(i - kAhead) % kRing], store));
        }
    }

private:
    ValueIndexSet set_;
    std::vector<uint8_t> bytes_; // the stored values' record bytes, kGpuActivityBytes each

    uint32_t intern(const uint8_t* raw, uint64_t h, PodVector<GpuActivity>& store) {
        uint32_t i = set_.find(h, [&](uint32_t k) { return sameBytes(bytesOf(k), raw); });
        if (i != ValueIndexSet::kNone) return i;
        Get g{raw};
        store.push_back(readGpuActivity(g));
        bytes_.insert(bytes_.end(), raw, raw + fmt::kGpuActivityBytes);
        i = static_cast<uint32_t>(store.size() - 1);
        set_.insert(h, i, [&](uint32_t k) { return hash(bytesOf(k)); });
        return i;
    }
    const uint8_t* bytesOf(uint32_t index) const {
        return bytes_.data() + size_t(index) * fmt::kGpuActivityBytes;
    }
    // Whether two values' bytes are equal: word by word, the last word overlapping the one
    // before it (inline: the compare of one value costs less than a call).
    static bool sameBytes(const uint8_t* a, const uint8_t* b) {
        constexpr size_t kLast = fmt::kGpuActivityBytes - 8;
        uint64_t diff = at<uint64_t>(a, kLast) ^ at<uint64_t>(b, kLast);
        for (size_t w = 0; w < kLast; w += 8) diff |= at<uint64_t>(a, w) ^ at<uint64_t>(b, w);
        return diff == 0;
    }
    static uint64_t hash(const uint8_t* raw) {
        constexpr size_t kWords = fmt::kGpuActivityBytes / 8, kTail = fmt::kGpuActivityBytes % 8;
        static_assert(kTail > 0 && kWords > 0);
        static constexpr uint64_t kMul[12] = {
            0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
            0xD6E8FEB86659FD93ull, 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull,
            0x87C37B91114253D5ull, 0x4CF5AD432745937Full, 0x2545F4914F6CDD1Dull,
            0x94D049BB133111EBull, 0xBF58476D1CE4E5B9ull, 0xA0761D6478BD642Full};
        static_assert(kWords < 12);
        uint64_t h = 0;
        for (size_t w = 0; w < kWords; ++w) h += at<uint64_t>(raw, w * 8) * kMul[w];
        // The last kTail bytes, from one load of the value's last eight (bytes assembled on the
        // stack and read back whole would stall store forwarding).
        const uint64_t tail = at<uint64_t>(raw, fmt::kGpuActivityBytes - 8) >> (8 * (8 - kTail));
        h += tail * kMul[kWords];
        return h ^ (h >> 29) ^ (h >> 47);
    }
};

// The string ids a half defines: a bitmap from the first one on (a half that starts deep in a
// file starts at a high id). Writers number strings 1, 2, 3, ...: an id far past the last one
// is damage (the sequential reader then says so), not a reason to allocate.
class StringIdSet {
public:
    bool has(uint32_t id) const {
        return id >= base_ && id - base_ < bits_.size() && bits_[id - base_];
    }
    // False when id was defined already or jumps far past the ones so far.
    bool add(uint32_t id) {
        if (bits_.empty()) base_ = id;
        if (id < base_ || id - base_ > bits_.size() + RecordSink::kMaxStringIdGap) return false;
        if (id - base_ >= bits_.size()) bits_.resize(size_t(id - base_) + 1, 0);
        if (bits_[id - base_]) return false;
        bits_[id - base_] = 1;
        return true;
    }
    uint32_t first() const { return base_; }
    uint32_t end() const { return base_ + uint32_t(bits_.size()); }

private:
    uint32_t base_ = 0;
    std::vector<uint8_t> bits_;
};

// One half of the chunks: counted (pass 1), then written into the builder's columns (pass 2).
class HalfLoader {
public:
    HalfLoader(const uint8_t* data, const std::vector<ChunkSpan>& chunks, size_t first, size_t last)
        : data_(data), chunks_(chunks), first_(first), last_(last) {}

    std::vector<KeyState> keys;
    std::vector<RareRecord> rare;   // in file order
    StringIdSet defined;            // string ids defined in this half
    uint32_t maxOutsideRef = 0;     // highest string id used but not defined before here
    size_t extras = 0;              // slices with an extra
    uint32_t firstExtra = 0;        // the first one's index in the trace
    SliceExtra* extraOut = nullptr; // where they are written
    PodVector<GpuActivity> gpu;     // this half's distinct values (indices local)
    std::vector<PendingArg> args;   // non-zero return codes, in file order
    uint64_t negativeDurations = 0;

    // Pass 1. False: the half needs the sequential reader (or the load was cancelled).
    bool count() {
        startPass(0.0, false);
        for (size_t i = first_; i < last_; ++i) {
            if (*stop_ || !eachRecord(i, &HalfLoader::countRecord)) return false;
            afterChunk(i);
        }
        return true;
    }

    // Pass 2, once every key has its track and columns, the extras their place, and the rare
    // records were replayed (string ids map to the model's; definedAt[id]: the file offset of
    // the record defining string id): each chunk's CRC and sequence number checked, then its
    // records written. False: the half needs the sequential reader.
    bool write(const RecordSink& sink, const std::vector<uint64_t>& definedAt) {
        names_ = sink.stringMap().data();
        definedAt_ = definedAt.data();
        nameCount_ = uint32_t(definedAt.size());
        for (uint8_t k = 0; k <= fmt::kMaxSliceKind; ++k)
            category_[k] = sink.category(SliceKind(k));
        startPass(0.5, true);
        for (size_t i = first_; i < last_ && !*stop_; ++i) {
            if (!checkChunk(data_, chunks_[i], uint32_t(i)).empty() ||
                !eachRecord(i, &HalfLoader::writeRecord))
                return false;
            afterChunk(i);
        }
        return true;
    }

    // Set when the progress callback (called by the first half only) asked to stop.
    bool cancelled = false;

    void setContext(std::atomic<bool>* stop, const ParallelLoadHooks* hooks, bool reports) {
        stop_ = stop;
        hooks_ = hooks;
        reports_ = reports;
    }

private:
    const uint8_t* data_;
    const std::vector<ChunkSpan>& chunks_;
    size_t first_, last_;
    KeyIndex keyIndex_;
    GpuValuesByBytes gpuValues_;
    size_t nextExtra_ = 0;
    size_t extrasBacked_ = 0;
    const StringId* names_ = nullptr;
    const uint64_t* definedAt_ = nullptr;
    uint32_t nameCount_ = 0;
    StringId category_[fmt::kMaxSliceKind + 1] = {};
    std::atomic<bool>* stop_ = nullptr;
    const ParallelLoadHooks* hooks_ = nullptr;
    bool reports_ = false;
    size_t stepped_ = 0;     // file bytes of this half done at the last step (afterChunk)
    double passBase_ = 0;    // progress at the start of this pass
    bool handsBack_ = false; // this pass hands file bytes back at each step

    // (this->*f)(type, body, bytes) for each record of chunk i, until one returns false.
    bool eachRecord(size_t i, bool (HalfLoader::*f)(RT, const uint8_t*, uint32_t)) {
        return forEachRecord(data_, chunks_[i],
                             [&](RT t, const uint8_t* p, uint32_t bytes) {
                                 return (this->*f)(t, p, bytes) ? std::string() : std::string("x");
                             })
            .empty();
    }
    void startPass(double base, bool handsBack) {
        passBase_ = base;
        handsBack_ = handsBack;
        stepped_ = first_ < last_ ? chunks_[first_].offset : 0;
    }
    // Every 8 MiB: in pass 2, hands the bytes read back (pass 1 keeps them mapped for pass 2,
    // which then needs no fault to read them, while the columns it writes are not backed yet)
    // and, on the calling thread, reports progress (pass 1 is the first half of the work, pass
    // 2 the second).
    void afterChunk(size_t i) {
        constexpr size_t kStep = 8u << 20;
        const size_t done = chunks_[i].end();
        if (done - stepped_ < kStep && i + 1 != last_) return;
        if (handsBack_ && hooks_->releaseBytes) hooks_->releaseBytes(stepped_, done);
        stepped_ = done;
        if (!reports_ || !hooks_->progress) return;
        const size_t from = chunks_[first_].offset;
        const double part = double(done - from) / double(chunks_[last_ - 1].end() - from);
        if (!hooks_->progress(passBase_ + 0.5 * part)) {
            cancelled = true;
            *stop_ = true;
        }
    }

    uint32_t key(KeyKind kind, int64_t a, int64_t b, uint64_t c = 0) {
        return keyIndex_.get(TrackKey{kind, a, b, c}, [&] {
            keys.emplace_back().key = TrackKey{kind, a, b, c};
            return static_cast<uint32_t>(keys.size() - 1);
        });
    }
    // The key of a record that starts with i64 pid, i64 tid (CpuBegin, CpuEnd, Instant).
    KeyState& threadKey(const uint8_t* p) {
        return keys[key(KeyKind::Thread, at<int64_t>(p, 0), at<int64_t>(p, 8))];
    }
    void ref(uint32_t id) {
        if (id != 0 && !defined.has(id)) maxOutsideRef = std::max(maxOutsideRef, id);
    }
    static bool kindOk(uint8_t k) { return k <= fmt::kMaxSliceKind; }
    // Slice rows are counted from their header (and a CPU block's correlation column, for the
    // extras): their kinds and names are checked in pass 2, where they are read anyway, so that
    // this pass leaves most of the file's pages alone.
    bool countCpu(const CpuSliceColumns& c) {
        for (uint32_t i = 0; i < c.rows; ++i) extras += cell<int64_t>(c.correlation, i) >= 0;
        keys[key(KeyKind::Thread, c.pid, c.tid)].n.slices += c.rows;
        return true;
    }
    // A block's track is its first op's stream; pass 2 checks the others are on it.
    bool countGpu(const GpuOpColumns& c) {
        if (c.rows == 0) return true;
        extras += c.rows;
        keys[gpuKey(c.activity)].n.slices += c.rows;
        return true;
    }
    uint32_t gpuKey(const uint8_t* activity) {
        return key(KeyKind::Gpu, cell<int32_t>(activity, 0), cell<int64_t>(activity + 4, 0));
    }

    bool countRecord(RT type, const uint8_t* p, uint32_t bytes) {
        const uint32_t fixed = fmt::fixedBodyBytes(type);
        if (fixed != UINT32_MAX && bytes != fixed) return false;
        switch (type) {
        case RT::CpuSlice:
            return countCpu(CpuSliceColumns::ofRecord(p));
        case RT::CpuSliceBlock: {
            const auto c = CpuSliceColumns::ofBlock(p, bytes);
            return c && countCpu(*c);
        }
        case RT::CpuBegin: {
            if (!kindOk(p[off::kCpuBeginKind])) return false;
            ref(at<uint32_t>(p, off::kCpuBeginName));
            KeyState& k = threadKey(p);
            ++k.n.begins;
            ++k.n.edges;
            return true;
        }
        case RT::CpuEnd:
            ++threadKey(p).n.edges;
            return true;
        case RT::AsyncSlice: {
            const uint32_t name = at<uint32_t>(p, off::kAsyncName);
            ref(name);
            ++keys[key(KeyKind::Async, at<int64_t>(p, 0), name, at<uint64_t>(p, 8))].n.slices;
            return true;
        }
        case RT::Instant:
            ref(at<uint32_t>(p, off::kInstantName));
            ++threadKey(p).n.instants;
            return true;
        case RT::GpuOp:
            return countGpu(GpuOpColumns::ofRecord(p));
        case RT::GpuOpBlock: {
            const auto c = GpuOpColumns::ofBlock(p, bytes);
            return c && countGpu(*c);
        }
        case RT::Counter: {
            const uint32_t name = at<uint32_t>(p, off::kCounterName);
            ref(name);
            ++keys[key(KeyKind::Counter, at<int64_t>(p, 0), name)].n.counterSamples;
            return true;
        }
        case RT::String: {
            if (bytes < 4) return false;
            const uint32_t id = at<uint32_t>(p, 0);
            // Defined twice, or far out: left to the sequential reader.
            if (id == 0 || !defined.add(id)) return false;
            rare.push_back({type, p, bytes});
            return true;
        }
        default: // metadata, names, devices, warnings, end of file, unknown types
            rare.push_back({type, p, bytes});
            return true;
        }
    }

    // Backs k's slice columns up to row `upTo` and a step beyond, in one call per column (cheaper
    // than a fault per page), as pass 2 reaches them: meanwhile the file pages read are handed
    // back, so the resident set grows by the columns as it shrinks by the file.
    static void backColumns(KeyState& k, size_t upTo) {
        const size_t to = std::min(k.sliceEnd, std::max(upTo, k.backed + kBackStep));
        SliceColumns& c = *k.out.slices;
        auto back = [&](auto& column) {
            if (to > k.backed)
                populateForWrite(&column[k.backed], (to - k.backed) * sizeof(column[0]));
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
    void backExtras(size_t upTo) {
        const size_t to = std::min(extras, std::max(upTo, extrasBacked_ + kBackStep));
        if (to > extrasBacked_)
            populateForWrite(extraOut + extrasBacked_, (to - extrasBacked_) * sizeof(SliceExtra));
        extrasBacked_ = to;
    }
    static constexpr size_t kBackStep = 1 << 13; // rows

    // The columns every slice row fills the same way; returns where the rows start, or
    // SIZE_MAX when the track has no room left for them (the file changed since pass 1), or a
    // row has an unknown kind or names a string not defined before its record (the checks of
    // the sequential reader, which then reads the file).
    size_t sliceRows(KeyState& k, const uint8_t* start, const uint8_t* end, const uint8_t* name,
                     const uint8_t* kind, uint32_t n) {
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
            const uint32_t id = cell<uint32_t>(name, i), known = id < nameCount_ ? id : 0;
            outside |= id - known;
            newest = std::max(newest, definedAt_[known]);
            c.name[at + i] = names_[known];
        }
        if (outside != 0 || newest >= uint64_t(start - data_)) return SIZE_MAX;
        std::memcpy(&c.start[at], start, 8 * size_t(n));
        for (uint32_t i = 0; i < n; ++i)
            c.dur[at + i] =
                sliceDuration(c.start[at + i], cell<int64_t>(end, i), negativeDurations);
        std::memcpy(&c.kind[at], kind, n);
        for (uint32_t i = 0; i < n; ++i) c.category[at + i] = category_[kind[i]];
        std::fill_n(&c.args[at], n, kNoArgs);
        std::fill_n(&c.flags[at], n, uint8_t(0));
        k.slice += n;
        k.seq += n;
        return at;
    }

    bool writeCpu(const CpuSliceColumns& r) {
        const uint32_t ki = key(KeyKind::Thread, r.pid, r.tid);
        KeyState& k = keys[ki];
        const size_t at = sliceRows(k, r.start, r.end, r.name, r.kind, r.rows);
        if (at == SIZE_MAX) return false;
        if (nextExtra_ + r.rows > extrasBacked_) backExtras(nextExtra_ + r.rows);
        uint32_t* extraColumn = &k.out.slices->extra[at];
        for (uint32_t i = 0; i < r.rows; ++i) {
            const int64_t corr = cell<int64_t>(r.correlation, i);
            if (corr < 0) {
                extraColumn[i] = kNoExtra;
                continue;
            }
            if (nextExtra_ == extras) return false;
            extraOut[nextExtra_] = SliceExtra{.correlation = corr};
            extraColumn[i] = firstExtra + uint32_t(nextExtra_++);
        }
        for (uint32_t i = 0; i < r.rows; ++i)
            if (const int32_t rc = cell<int32_t>(r.returnCode, i); rc != 0)
                args.push_back({ki, at + i, rc});
        return true;
    }

    bool writeGpu(const GpuOpColumns& r) {
        if (r.rows == 0) return true;
        KeyState& k = keys[gpuKey(r.activity)];
        for (uint32_t i = 1; i < r.rows; ++i)
            if (std::memcmp(r.activityOf(i), r.activity, 12) != 0) return false; // device, stream
        if (extras - nextExtra_ < r.rows) return false;
        const size_t at = sliceRows(k, r.start, r.end, r.name, r.kind, r.rows);
        if (at == SIZE_MAX) return false;
        if (nextExtra_ + r.rows > extrasBacked_) backExtras(nextExtra_ + r.rows);
        uint32_t* extraColumn = &k.out.slices->extra[at];
        SliceExtra* e = extraOut + nextExtra_;
        for (uint32_t i = 0; i < r.rows; ++i) {
            e[i] = SliceExtra{.correlation = cell<int64_t>(r.correlation, i)};
            extraColumn[i] = firstExtra + uint32_t(nextExtra_ + i);
        }
        gpuValues_.internRun(r.activity, r.rows, gpu,
                             [&](uint32_t i, uint32_t v) { e[i].gpu = v; });
        nextExtra_ += r.rows;
        return true;
    }

    // False when the track has no room left for it (the file changed since pass 1).
    static bool addEdge(KeyState& k, const RawEdge& e) {
        if (k.edge == k.edgeEnd) return false;
        k.out.edges[k.edge++] = e;
        return true;
    }

    bool writeRecord(RT type, const uint8_t* p, uint32_t bytes) {
        switch (type) {
        case RT::CpuSlice:
            return writeCpu(CpuSliceColumns::ofRecord(p));
        case RT::CpuSliceBlock: {
            const auto c = CpuSliceColumns::ofBlock(p, bytes);
            return c && writeCpu(*c);
        }
        case RT::GpuOp:
            return writeGpu(GpuOpColumns::ofRecord(p));
        case RT::GpuOpBlock: {
            const auto c = GpuOpColumns::ofBlock(p, bytes);
            return c && writeGpu(*c);
        }
        case RT::CpuBegin: {
            KeyState& k = threadKey(p);
            RawEdge e;
            e.slice.start = at<int64_t>(p, 16);
            e.slice.name = names_[at<uint32_t>(p, off::kCpuBeginName)];
            e.slice.kind = SliceKind(p[off::kCpuBeginKind]);
            e.slice.category = category_[uint8_t(e.slice.kind)];
            e.slice.seq = k.seq++;
            return addEdge(k, e);
        }
        case RT::CpuEnd: {
            RawEdge e;
            e.slice.start = at<int64_t>(p, 16);
            e.isEnd = true;
            return addEdge(threadKey(p), e);
        }
        case RT::AsyncSlice: {
            const uint32_t name = at<uint32_t>(p, off::kAsyncName);
            KeyState& k = keys[key(KeyKind::Async, at<int64_t>(p, 0), name, at<uint64_t>(p, 8))];
            const uint8_t kind = uint8_t(SliceKind::UserAnnotation);
            const size_t i = sliceRows(k, p + 16, p + 24, p + off::kAsyncName, &kind, 1);
            if (i == SIZE_MAX) return false;
            k.out.slices->extra[i] = kNoExtra;
            return true;
        }
        case RT::Instant: {
            KeyState& k = threadKey(p);
            if (k.instant == k.instantEnd) return false;
            InstantColumns& in = *k.out.instants;
            const size_t i = k.instant++;
            in.ts[i] = at<int64_t>(p, 16);
            in.name[i] = names_[at<uint32_t>(p, off::kInstantName)];
            in.category[i] = category_[uint8_t(SliceKind::Instant)];
            in.args[i] = kNoArgs;
            return true;
        }
        case RT::Counter: {
            KeyState& k =
                keys[key(KeyKind::Counter, at<int64_t>(p, 0), at<uint32_t>(p, off::kCounterName))];
            if (k.counter == k.counterEnd) return false;
            const size_t i = k.counter++;
            k.out.counter->ts[i] = at<int64_t>(p, off::kCounterTs);
            k.out.counter->value[i] = at<double>(p, off::kCounterValue);
            return true;
        }
        default: // replayed through the RecordSink
            return true;
        }
    }
};

// Runs f(half) for both halves, the second on a helper thread; rethrows what either threw.
template <typename F> void onBothHalves(F&& f) {
    std::exception_ptr helperError;
    std::thread helper([&] {
        try {
            f(1);
        } catch (...) {
            helperError = std::current_exception();
        }
    });
    std::exception_ptr mine;
    try {
        f(0);
    } catch (...) {
        mine = std::current_exception();
    }
    helper.join();
    if (mine) std::rethrow_exception(mine);
    if (helperError) std::rethrow_exception(helperError);
}

// The string checks only the whole file can make: the first half uses no string it did not
// define before; the second half uses only strings the first defined (or it defined before)
// and defines none of them again.
bool stringsConsistent(const HalfLoader& h0, const HalfLoader& h1) {
    if (h0.maxOutsideRef != 0) return false;
    for (uint32_t id = 1; id <= h1.maxOutsideRef; ++id)
        if (!h0.defined.has(id)) return false;
    for (uint32_t id = h1.defined.first(); id < h1.defined.end(); ++id)
        if (h1.defined.has(id) && h0.defined.has(id)) return false;
    return true;
}

// The builder's track for a key (file string ids mapped), created on first use.
TrackId trackOf(const TrackKey& k, TraceBuilder& b, const std::vector<StringId>& names) {
    switch (k.kind) {
    case KeyKind::Thread:
        return b.threadTrack(k.a, k.b);
    case KeyKind::Gpu:
        return b.gpuStreamTrack(int32_t(k.a), k.b, k.a, k.b);
    case KeyKind::Counter:
        return b.counterTrack(k.a, names[size_t(k.b)]);
    case KeyKind::Async:
        return b.asyncTrack(k.a, names[size_t(k.b)], k.c);
    }
    return UINT32_MAX;
}

} // namespace

ParallelLoad loadChunksInParallel(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                                  TraceBuilder& builder, RecordSink& sink,
                                  const ParallelLoadHooks& hooks) {
    // Halves of about equal bytes.
    size_t mid = 0;
    if (!chunks.empty()) {
        const size_t from = chunks.front().offset, half = (chunks.back().end() - from) / 2;
        while (mid < chunks.size() && chunks[mid].end() - from <= half) ++mid;
    }
    PhaseTimer phases;
    HalfLoader halves[2] = {{data, chunks, 0, mid}, {data, chunks, mid, chunks.size()}};
    std::atomic<bool> stop{false};
    for (int h = 0; h < 2; ++h) halves[h].setContext(&stop, &hooks, h == 0);

    // Pass 1: count and check.
    bool ok[2] = {false, false};
    onBothHalves([&](int h) {
        ok[h] = halves[h].count();
        if (!ok[h]) stop = true;
    });
    if (halves[0].cancelled) return ParallelLoad::Cancelled;
    if (!ok[0] || !ok[1] || !stringsConsistent(halves[0], halves[1]))
        return ParallelLoad::NeedsSequential;

    phases.mark("count, check");
    // The rare records, in file order, exactly as the sequential load applies them.
    for (const HalfLoader& h : halves)
        for (const RareRecord& r : h.rare)
            if (!sink.apply(r.type, Get{r.body}, r.bytes).empty())
                return ParallelLoad::NeedsSequential;
    const std::vector<StringId>& names = sink.stringMap();
    // Where each string is defined (id 0, "", before everything; UINT64_MAX: nowhere), for the
    // checks of slice rows in pass 2.
    std::vector<uint64_t> definedAt(names.size(), UINT64_MAX); // the sink maps id 0 from the start
    definedAt[0] = 0;
    for (const HalfLoader& h : halves)
        for (const RareRecord& r : h.rare)
            if (r.type == RT::String) definedAt[at<uint32_t>(r.body, 0)] = uint64_t(r.body - data);

    // Tracks in order of first use (the first half's keys, then the second's new ones), each
    // key's counts added to its track's. Two different keys on one track (only when a file
    // defines the same text under two ids) would interleave: the sequential load handles that.
    std::vector<TraceBuilder::PrefillCounts> total;
    std::unordered_map<TrackId, const TrackKey*> keyOf;
    for (HalfLoader& h : halves)
        for (KeyState& k : h.keys) {
            k.track = trackOf(k.key, builder, names);
            auto [it, added] = keyOf.try_emplace(k.track, &k.key);
            if (!added && !(*it->second == k.key)) return ParallelLoad::NeedsSequential;
            if (total.size() <= k.track) total.resize(k.track + 1);
            auto& t = total[k.track];
            t.slices += k.n.slices;
            t.begins += k.n.begins;
            t.edges += k.n.edges;
            t.counterSamples += k.n.counterSamples;
            t.instants += k.n.instants;
        }
    // Columns sized once (both cores share the page faults); the second half writes after the
    // first half's part of each track.
    std::vector<TraceBuilder::Prefilled> out(total.size());
    std::vector<TrackId> used;
    for (const auto& [track, key] : keyOf) used.push_back(track);
    parallelFor(used.size(), true,
                [&](size_t i) { out[used[i]] = builder.prefill(used[i], total[used[i]]); });
    std::vector<const KeyState*> firstHalfKey(total.size(), nullptr);
    for (KeyState& k : halves[0].keys) {
        k.out = out[k.track];
        firstHalfKey[k.track] = &k;
    }
    for (KeyState& k : halves[1].keys) {
        k.out = out[k.track];
        if (const KeyState* before = firstHalfKey[k.track]) {
            k.slice = before->n.slices;
            k.edge = before->n.edges;
            k.counter = before->n.counterSamples;
            k.instant = before->n.instants;
            k.seq = uint32_t(before->n.slices + before->n.begins);
        }
    }
    for (HalfLoader& h : halves)
        for (KeyState& k : h.keys) {
            k.sliceEnd = k.slice + k.n.slices;
            k.backed = k.slice;
            k.edgeEnd = k.edge + k.n.edges;
            k.counterEnd = k.counter + k.n.counterSamples;
            k.instantEnd = k.instant + k.n.instants;
        }
    phases.mark("size columns");
    uint32_t firstExtra = 0;
    SliceExtra* extraOut = builder.prefillExtras(halves[0].extras + halves[1].extras, &firstExtra);
    halves[0].firstExtra = firstExtra;
    halves[1].firstExtra = firstExtra + uint32_t(halves[0].extras);
    halves[0].extraOut = extraOut;
    halves[1].extraOut = extraOut + halves[0].extras;

    // Pass 2: check each chunk's CRC, write.
    bool written[2] = {false, false};
    onBothHalves([&](int h) {
        written[h] = halves[h].write(sink, definedAt);
        if (!written[h]) stop = true;
    });
    if (halves[0].cancelled) return ParallelLoad::Cancelled;
    if (!written[0] || !written[1]) return ParallelLoad::NeedsSequential;

    phases.mark("write records");
    // GPU activity values of each half, renumbered after the ones before them.
    for (int h = 0; h < 2; ++h) {
        const uint32_t base =
            builder.appendGpuActivities(halves[h].gpu.data(), halves[h].gpu.size());
        if (base == 0) continue;
        SliceExtra* e = halves[h].extraOut;
        for (size_t i = 0; i < halves[h].extras; ++i)
            if (e[i].gpu != SliceExtra::kNone) e[i].gpu += base;
    }
    // Return codes as args, in file order (arg sets are numbered as they are made).
    ArgStore& args = builder.args();
    for (const HalfLoader& h : halves)
        for (const PendingArg& a : h.args) {
            args.begin();
            args.addInt(sink.returnCodeKey(), a.returnCode);
            h.keys[a.key].out.slices->args[a.slice] = args.finish();
        }
    sink.negativeDurations += halves[0].negativeDurations + halves[1].negativeDurations;
    return ParallelLoad::Loaded;
}

} // namespace strata::strata_reader
