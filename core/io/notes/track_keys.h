#pragma once
// Stable names of a trace's tracks and track groups for the notes sidecar (notes_file.h): the same
// track of the same file gets the same key at every load, whatever the rows' order or options.
//   thread:PID:TID   stream:DEVICE:STREAM   counter:PID:NAME   async:PID:NAME:COOKIE
//   instants:PID     instants:global
// and groups: process:PID, gpu:DEVICE, global.
#include "model/trace.h"

#include <string>

namespace strata {

std::string trackKey(const Trace& trace, TrackId track);
// The group a track's row lies in (a GPU stream: its device; a global instant: "global").
std::string trackGroupKey(const Trace& trace, TrackId track);
std::string processGroupKey(int64_t pid);
std::string deviceGroupKey(int32_t device);

} // namespace strata
