#pragma once
// Kineto's GPU activity args ("device", "stream", "grid": [x,y,z], "registers per thread", ...)
// and memcpy names ("Memcpy HtoD (Pageable -> Device)") decoded into GpuActivity.
#include "model/trace.h"

#include <array>
#include <string_view>

namespace strata {

// Parses "[x, y, z]" (fewer entries leave the rest at 0). False if it is not such an array.
bool parseDim3(std::string_view json, std::array<int32_t, 3>* out);

// Fills copyKind/srcMemory/dstMemory from a Kineto memcpy or memset name, with CUPTI's enum values
// (CUpti_ActivityMemcpyKind: HtoD 1, DtoH 2, HtoA 3, AtoH 4, AtoA 5, AtoD 6, DtoA 7, DtoD 8,
// HtoH 9, PtoP 10; CUpti_ActivityMemoryKind: Pageable 1, Pinned 2, Device 3, Array 4, Managed 5).
void parseCopyName(std::string_view name, GpuActivity* gpu);

} // namespace strata
