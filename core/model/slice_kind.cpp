#include "model/slice_kind.h"

namespace strata {

SliceKind sliceKindFromCategory(std::string_view c) {
    // Kineto's vocabulary (libkineto/include/ActivityType.h) and common variants; MTIA's as HTA
    // reads it (hta/common/types.py: mtia_ccp_events are GPU kernels, mtia_runtime a runtime).
    // Categories not named here may still be device work or a runtime call by what their events
    // carry (io/json/json_device_events.h).
    if (c == "kernel" || c == "Kernel" || c == "mtia_ccp_events") return SliceKind::Kernel;
    if (c == "cpu_op" || c == "operator" || c == "Operator") return SliceKind::CpuOp;
    if (c == "cuda_runtime" || c == "hip_runtime" || c == "Runtime" || c == "mtia_runtime")
        return SliceKind::CudaRuntime;
    if (c == "cuda_driver" || c == "hip_driver" || c == "Driver") return SliceKind::CudaDriver;
    if (c == "python_function") return SliceKind::PythonFunction;
    if (c == "user_annotation" || c == "nvtx") return SliceKind::UserAnnotation;
    if (c == "gpu_memcpy" || c == "Memcpy") return SliceKind::Memcpy;
    if (c == "gpu_memset" || c == "Memset") return SliceKind::Memset;
    if (c == "gpu_user_annotation") return SliceKind::GpuUserAnnotation;
    if (c == "cuda_sync" || c == "synchronization") return SliceKind::Synchronization;
    if (c == "overhead" || c == "Overhead") return SliceKind::Overhead;
    return SliceKind::Generic;
}

std::string_view sliceKindName(SliceKind k) {
    switch (k) {
    case SliceKind::Generic:
        return "generic";
    case SliceKind::CpuOp:
        return "cpu_op";
    case SliceKind::PythonFunction:
        return "python_function";
    case SliceKind::UserAnnotation:
        return "user_annotation";
    case SliceKind::CudaRuntime:
        return "cuda_runtime";
    case SliceKind::CudaDriver:
        return "cuda_driver";
    case SliceKind::Kernel:
        return "kernel";
    case SliceKind::Memcpy:
        return "gpu_memcpy";
    case SliceKind::Memset:
        return "gpu_memset";
    case SliceKind::GpuUserAnnotation:
        return "gpu_user_annotation";
    case SliceKind::Synchronization:
        return "cuda_sync";
    case SliceKind::Overhead:
        return "overhead";
    case SliceKind::Instant:
        return "instant";
    }
    return "generic";
}

} // namespace strata
