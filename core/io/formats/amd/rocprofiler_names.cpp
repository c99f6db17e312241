#include "io/formats/amd/rocprofiler_names.h"

namespace strata {

RocprofilerDomain rocprofilerDomain(std::string_view domain) {
    if (domain.starts_with("MARKER")) return {SliceKind::UserAnnotation, "user_annotation"};
    if (domain.starts_with("HIP_RUNTIME")) return {SliceKind::CudaRuntime, "cuda_runtime"};
    if (domain.starts_with("HIP_COMPILER")) return {SliceKind::CudaRuntime, "hip_compiler"};
    return {SliceKind::Generic, domain};
}

uint8_t copyKindOfDirection(std::string_view direction) {
    return direction.ends_with("HOST_TO_DEVICE")     ? 1
           : direction.ends_with("DEVICE_TO_HOST")   ? 2
           : direction.ends_with("DEVICE_TO_DEVICE") ? 8
           : direction.ends_with("HOST_TO_HOST")     ? 9
                                                     : 0;
}

int32_t workGroups(int64_t items, int64_t group) {
    return int32_t(group > 0 ? items / group + (items % group > 0) : items);
}

} // namespace strata
