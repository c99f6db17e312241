#pragma once
// What a slice is, from its category (Kineto's vocabulary) or from the reader that made it.
#include <cstdint>
#include <string_view>

namespace strata {

enum class SliceKind : uint8_t {
    Generic = 0,
    CpuOp,             // cpu_op, operator
    PythonFunction,    // python_function
    UserAnnotation,    // user_annotation, NVTX ranges on the CPU
    CudaRuntime,       // cuda_runtime (and other runtime APIs: hip_runtime)
    CudaDriver,        // cuda_driver
    Kernel,            // kernel
    Memcpy,            // gpu_memcpy
    Memset,            // gpu_memset
    GpuUserAnnotation, // gpu_user_annotation
    Synchronization,   // cuda_sync / synchronization
    Overhead,          // overhead (CUPTI, profiler)
    Instant,           // zero-length instant events
};

SliceKind sliceKindFromCategory(std::string_view category);
std::string_view sliceKindName(SliceKind k);

inline bool isGpuKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset ||
           k == SliceKind::GpuUserAnnotation || k == SliceKind::Synchronization;
}
// GPU activity that keeps a device busy (for idle-gap analysis).
inline bool isGpuBusyKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset;
}
inline bool isLaunchApiKind(SliceKind k) {
    return k == SliceKind::CudaRuntime || k == SliceKind::CudaDriver;
}

} // namespace strata
