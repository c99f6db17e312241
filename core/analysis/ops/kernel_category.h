#pragma once
// What kind of work a GPU op is, for the "kernel time by category" overview: GEMM, attention,
// elementwise, reduction, communication (NCCL/RCCL), memcpy, memset, other. Copies and sets by
// their slice kind; kernels by name (ROCm's copy and fill kernels are memcpy and memset), from
// the one pattern table in kernel_category.cpp (the first pattern found in the lower-cased name
// wins, in table order).
#include "model/slice_kind.h"

#include <string_view>

namespace strata {

enum class KernelCategory : uint8_t {
    Gemm,
    Attention,
    Elementwise,
    Reduction,
    Communication,
    Memcpy,
    Memset,
    Other,
};
constexpr int kKernelCategoryCount = 8;

const char* kernelCategoryName(KernelCategory c); // "gemm", "attention", ...
KernelCategory kernelCategory(SliceKind kind, std::string_view name);

} // namespace strata
