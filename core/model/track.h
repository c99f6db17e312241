#pragma once
// A track: one timeline row (a CPU thread lane, a GPU stream lane, a counter series, an async
// track). Slices are stored column-wise, sorted by start (ties: longer first), with depth and
// parent computed at build time (self time on demand: SliceColumns::selfTime).
#include "model/arg_store.h"
#include "model/slice_kind.h"
#include "model/string_pool.h"
#include "model/time.h"
#include "util/column.h"

#include <cstdint>
#include <vector>

namespace strata {

using TrackId = uint32_t;
using SliceIndex = uint32_t;
constexpr SliceIndex kNoSlice = UINT32_MAX;
constexpr uint32_t kNoExtra = UINT32_MAX;

// A slice: its track and its index there.
struct SliceRef {
    TrackId track = UINT32_MAX;
    SliceIndex index = kNoSlice;
    bool valid() const { return track != UINT32_MAX && index != kNoSlice; }
    friend bool operator==(const SliceRef&, const SliceRef&) = default;
    friend auto operator<=>(const SliceRef&, const SliceRef&) = default;
};

// An instant: its track and its index in the track's instant columns.
struct InstantRef {
    TrackId track = UINT32_MAX;
    uint32_t index = UINT32_MAX;
    bool valid() const { return track != UINT32_MAX && index != UINT32_MAX; }
    friend bool operator==(const InstantRef&, const InstantRef&) = default;
    friend auto operator<=>(const InstantRef&, const InstantRef&) = default;
};

enum class TrackKind : uint8_t {
    Thread,          // CPU thread (pid, tid)
    GpuStream,       // GPU device (device) and stream (tid = stream id)
    Counter,         // counter series (pid, name)
    Async,           // async slices (pid, name, cookie)
    ProcessInstants, // process-scoped instants (pid)
    GlobalInstants,  // global instants
};

// 40 bytes per slice: start 8, dur 8, name 4, category 4, parent 4, args 4, extra 4, depth 2,
// kind 1, flags 1.
struct SliceColumns {
    Column<TimeNs> start;
    Column<TimeNs> dur;
    Column<StringId> name;
    Column<StringId> category;
    Column<SliceIndex> parent; // index in the same track, kNoSlice at depth 0
    Column<ArgSetId> args;
    Column<uint32_t> extra; // index into Trace::extras(), kNoExtra if none
    Column<uint16_t> depth;
    Column<SliceKind> kind;
    Column<uint8_t> flags; // SliceFlags

    size_t size() const { return start.size(); }
    TimeNs end(SliceIndex i) const { return start[i] + dur[i]; }
    // Self time, the one definition every view and analysis uses (Details, the CPU op table, the
    // call tree; the Range table applies it to the parts inside its range): the slice's
    // duration minus its direct children's (which follow i, starting before its end), never
    // below 0. O(descendants), computed when asked rather than stored for every slice.
    TimeNs selfTime(SliceIndex i) const;
    // The same for every slice of [first, last) at once (self[i - first]), in one pass over
    // them and their children.
    std::vector<TimeNs> selfTimes(SliceIndex first, SliceIndex last) const;
    size_t memoryBytes() const;
};

enum SliceFlags : uint8_t {
    kSliceClosedAtEnd = 1, // a B without E, closed at the trace end
    kSliceFromBE = 2,      // came from a B/E pair (not X)
};

struct CounterColumns {
    Column<TimeNs> ts;
    Column<double> value;
    size_t size() const { return ts.size(); }
};

struct InstantColumns {
    Column<TimeNs> ts;
    Column<StringId> name;
    Column<StringId> category;
    Column<ArgSetId> args;
    size_t size() const { return ts.size(); }
};

struct Track {
    TrackKind kind = TrackKind::Thread;
    int64_t pid = 0;
    int64_t tid = 0;     // thread id, or stream id for GpuStream
    int32_t device = -1; // GPU device for GpuStream tracks
    uint32_t lane = 0; // 0 = main lane; >0 = overflow lane for slices that overlap without nesting
    StringId name = 0; // counter/async name; thread/stream tracks take names from Thread/Process
    uint64_t cookie = 0; // async id

    SliceColumns slices;
    CounterColumns counter;
    InstantColumns instants;
    uint16_t maxDepth = 0;  // deepest depth + 1 (0 if no slices)
    TimeNs maxDuration = 0; // longest slice, for range queries

    // Index range [first, last) of slices that overlap [t0, t1), in start order.
    // A slice overlaps if start < t1 and end > t0 (zero-length slices at t0 count).
    std::pair<SliceIndex, SliceIndex> overlapping(TimeNs t0, TimeNs t1) const;
    // Deepest slice containing t at the given depth, or kNoSlice.
    SliceIndex sliceAt(TimeNs t, uint16_t depth) const;
};

} // namespace strata
