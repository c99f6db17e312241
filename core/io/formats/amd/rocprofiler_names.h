#pragma once
// What rocprofiler-sdk's names mean in Strata's terms, for every reader of rocprofv3's outputs
// (its CSV files, its JSON, its rocpd database; rpd's work-groups too): an API domain
// ("HIP_RUNTIME_API", "MARKER_CORE_API", ...) as a slice kind and category, a copy direction
// ("MEMORY_COPY_HOST_TO_DEVICE") as CUPTI's copy kind, a grid in work-items as work-groups, and the
// GPU lane of a device's queue or stream.
#include "model/build/trace_builder.h"

#include <cstdint>
#include <string_view>

namespace strata {

struct RocprofilerDomain {
    SliceKind kind = SliceKind::Generic;
    std::string_view category; // "cuda_runtime", "hip_compiler", "user_annotation", or the domain
};

// HIP runtime calls as cuda_runtime, HIP compiler calls as hip_compiler (both CudaRuntime), markers
// (roctx) as user_annotation, any other domain (HSA_CORE_API, RCCL_API, ...) by its own name.
RocprofilerDomain rocprofilerDomain(std::string_view domain);

// 1 (HtoD), 2 (DtoH), 8 (DtoD), 9 (HtoH) from a name ending in the direction; 0 for any other.
uint8_t copyKindOfDirection(std::string_view direction);

// A grid of `items` work-items in groups of `group` as a count of work-groups (rounded up).
int32_t workGroups(int64_t items, int64_t group);

// The lane of GPU work on `device`'s queue or stream.
inline TrackId rocprofilerGpuLane(TraceBuilder& b, int32_t device, int64_t stream) {
    return b.gpuStreamTrack(device, stream, device, stream);
}

} // namespace strata
