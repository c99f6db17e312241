#pragma once
// Kineto's GPU activity args ("device", "stream", "grid": [x,y,z], "registers per thread", ...)
// and memcpy names ("Memcpy HtoD (Pageable -> Device)") decoded into GpuActivity.
#include "model/trace.h"

#include <array>
#include <string_view>

namespace strata {

// Parses "[x, y, z]" (fewer entries leave the rest at 0). False if it is not such an array.
bool parseDim3(std::string_view json, std::array<int32_t, 3>* out);

// Fills copyKind/srcMemory/dstMemory from a Kineto memcpy or memset name ("Memcpy HtoD (Pageable
// -> Device)", "Memset (Device)"), with CUPTI's enum values (the names in model/cupti_names.h).
void parseCopyName(std::string_view name, GpuActivity* gpu);

} // namespace strata
