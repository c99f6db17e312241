#pragma once
// Device work and runtime calls recognised by what a Chrome JSON event carries, for categories
// that model/slice_kind.cpp does not name (an accelerator Strata does not know). The category's
// name decides first (sliceKindFromCategory); only an event whose category says nothing
// (SliceKind::Generic) is looked at here:
// - a category ending in "_runtime" ("_driver") whose event carries a "correlation" is a
//   runtime (driver) call, the launch side of launch -> GPU op correlation;
// - an 'X' event whose args put it on a queue ("stream", "stream_id", "queue", "queue_id",
//   "sqid") and carry a "correlation", on a device lane, is GPU work (SliceKind::Kernel);
// - an event whose args name a queue (or a "device" that is its pid) but that is not taken as
//   device work by the rule above stays a CPU slice, and the reader says so in a warning that
//   names the category (notTakenWhy).
// A device lane is a pid that Kineto gives a device: the "device" its args name, or, when they
// name none, a device index (0 <= pid < kMaxDeviceLanePid; an OS process id is larger).
#include "model/slice_kind.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

constexpr int64_t kMaxDeviceLanePid = 1024;

// What an event's args say about where it ran (one pass over them in the reader).
struct DeviceArgs {
    bool queue = false;            // "stream", "stream_id", "queue", "queue_id" or "sqid"
    bool correlation = false;      // "correlation"
    std::optional<int64_t> device; // "device", when an integer
};

// True for the arg keys that put an event on a device queue.
bool isQueueArgKey(std::string_view key);

struct DeviceKind {
    SliceKind kind = SliceKind::Generic;
    // When the event looks like device work but is kept as a CPU slice: why, for the warning
    // ("category 'x' ..."); empty otherwise.
    std::string notTakenWhy;
};

// The kind of a slice event ('X' or 'B', `ph`) of `category` on `pid`, whose category's name
// gave `byCategory`.
DeviceKind deviceKindOf(SliceKind byCategory, std::string_view category, char ph, int64_t pid,
                        const DeviceArgs& args);

} // namespace strata
