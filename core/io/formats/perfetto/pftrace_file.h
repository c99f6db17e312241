#pragma once
// A Perfetto protobuf trace (.pftrace) with TrackEvent data read into a TraceBuilder: Strata's own
// exports (io/export/perfetto_proto_export.h) and other TrackEvent producers (Kineto's protobuf
// output, the Perfetto SDK). What becomes what:
//   TrackDescriptor   a thread (ThreadDescriptor) is a thread track, a process's name is kept,
//                     a track named "Stream S" under one named "GPU N..." is GPU N's stream S,
//                     a counter track a counter, any other named track an async track of its
//                     process (or of none)
//   TrackEvent        begin/end pairs per track as slices (kind from the category, as the JSON
//                     reader's), instants, counter values; names and categories interned
//                     (InternedData per sequence, cleared with SEQ_INCREMENTAL_STATE_CLEARED) or
//                     inline; debug annotations as args, Kineto's GPU names (device, stream,
//                     grid, block, registers per thread, bytes, correlation, External id) read
//                     back into GPU activity and correlation; flow_ids / terminating_flow_ids as
//                     flows
// Read packet by packet: a torn last packet leaves the ones before it read (a warning says at
// which byte); other packet kinds (ftrace, process stats, ...) are counted in a warning.
#include "model/build/trace_builder.h"

#include <string>
#include <string_view>

namespace strata {

// False (and *error naming the byte) when not even the first packet can be read.
bool readPftrace(std::string_view bytes, TraceBuilder& builder, std::string* error);
// Whether the first bytes look like a Perfetto trace: a packet whose first field is one a
// TrackEvent trace starts with (timestamp, sequence id, track event, interned data, sequence
// flags, track descriptor).
bool looksLikePftrace(std::string_view head);

} // namespace strata
