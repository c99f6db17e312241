#pragma once
// An OTF2 archive (Score-P and other HPC tools; its anchor file `*.otf2`) read through Debian's
// OTF2 library into a TraceBuilder:
//   LocationGroup         a process (its name: "MPI Rank 0", ...); its pid the group's id
//   Location              a CPU thread of its group (tid: the location's id) or, for a GPU
//                         location (an accelerator stream: Score-P's CUDA/HIP), a stream lane of device = the
//                         group's id
//   Enter / Leave         slices of the region on their location (kernels on GPU locations)
//   MpiSend / MpiRecv     instants on their thread with the peer, communicator, tag and length
// Timestamps: the archive's ticks converted to ns by its clock's resolution (ClockProperties).
// Other event kinds (ProgramBegin/End, collectives' begin/end, metrics, ...) are counted in a
// warning.
#include "model/build/trace_builder.h"

#include <string>

namespace strata {

// False (and *error naming the file) when the archive cannot be opened or its definitions read.
bool readOtf2Archive(const std::string& anchor, TraceBuilder& builder, std::string* error);

} // namespace strata
