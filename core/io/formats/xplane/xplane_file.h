#pragma once
// The JAX/XLA profiler's XSpace (`.xplane.pb`: protobuf, xplane.proto beside this file) read into
// a TraceBuilder, one plane at a time (a torn last plane leaves the planes before it read, and a
// warning says where it stopped):
//   /host:CPU          each line a thread of the host process (named by the line); events are
//                      CPU slices, runtime calls (hip*, cuda*, cu*) as cuda_runtime
//   /device:GPU:N      device N (vendor, cores, memory, compute capability from the plane's
//                      stats); each line a stream lane (its id); events are kernels, or copies
//                      and sets where their stats say so (memcpy_details, memset_details);
//                      kernel_details' "grid:x,y,z block:x,y,z" the launch configuration
//   other planes       named in a warning when they hold events
// Times: the line's timestamp_ns plus the event's offset in picoseconds (kept to the ns below);
// every stat an arg (names from the plane's stat metadata; ref values as the name they point
// to); the "correlation_id" stat links a launch call to its GPU work.
#include "model/build/trace_builder.h"

#include <string>
#include <string_view>

namespace strata {

// False (and *error naming the byte offset) when not even the first plane can be read.
bool readXSpace(std::string_view bytes, TraceBuilder& builder, std::string* error);
// Whether the first bytes look like an XSpace (a plane named "/host:..." or "/device:...").
bool looksLikeXSpace(std::string_view head);

} // namespace strata
