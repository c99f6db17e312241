#include "analysis/kernel_category.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace strata {

namespace {

struct Pattern {
    std::string_view text;
    KernelCategory category;
};

// Checked in order on the lower-cased name; communication and attention before GEMM (NCCL and
// flash-attention kernels contain "gemm"-like parts), reductions before elementwise.
constexpr Pattern kPatterns[] = {
    {"nccl", KernelCategory::Communication},
    {"rccl", KernelCategory::Communication},
    {"allreduce", KernelCategory::Communication},
    {"all_reduce", KernelCategory::Communication},
    {"allgather", KernelCategory::Communication},
    {"all_gather", KernelCategory::Communication},
    {"reducescatter", KernelCategory::Communication},
    {"reduce_scatter", KernelCategory::Communication},
    {"alltoall", KernelCategory::Communication},
    {"flash", KernelCategory::Attention},
    {"fmha", KernelCategory::Attention},
    {"attention", KernelCategory::Attention},
    {"attn", KernelCategory::Attention},
    {"sdpa", KernelCategory::Attention},
    {"gemm", KernelCategory::Gemm},
    {"gemv", KernelCategory::Gemm},
    {"cutlass", KernelCategory::Gemm},
    {"cublas", KernelCategory::Gemm},
    {"xmma", KernelCategory::Gemm},
    {"wgmma", KernelCategory::Gemm},
    {"matmul", KernelCategory::Gemm},
    {"_mm_", KernelCategory::Gemm},
    {"convolve", KernelCategory::Gemm}, // convolutions run as implicit GEMMs
    {"convolution", KernelCategory::Gemm},
    {"conv2d", KernelCategory::Gemm},
    {"conv3d", KernelCategory::Gemm},
    {"dgrad", KernelCategory::Gemm},
    {"wgrad", KernelCategory::Gemm},
    {"fprop", KernelCategory::Gemm},
    {"scudnn", KernelCategory::Gemm},
    {"reduce", KernelCategory::Reduction},
    {"reduction", KernelCategory::Reduction},
    {"norm", KernelCategory::Reduction},
    {"softmax", KernelCategory::Reduction},
    {"argmax", KernelCategory::Reduction},
    {"scan", KernelCategory::Reduction},
    {"_red_", KernelCategory::Reduction}, // triton_red_fused_...
    {"elementwise", KernelCategory::Elementwise},
    {"pointwise", KernelCategory::Elementwise},
    {"triton_poi", KernelCategory::Elementwise},
    {"vectorized", KernelCategory::Elementwise},
    {"unrolled", KernelCategory::Elementwise},
    {"copy_kernel", KernelCategory::Elementwise},
    {"fill", KernelCategory::Elementwise},
    {"activation", KernelCategory::Elementwise},
    {"gelu", KernelCategory::Elementwise},
    {"relu", KernelCategory::Elementwise},
    {"silu", KernelCategory::Elementwise},
};

} // namespace

const char* kernelCategoryName(KernelCategory c) {
    switch (c) {
    case KernelCategory::Gemm:
        return "gemm";
    case KernelCategory::Attention:
        return "attention";
    case KernelCategory::Elementwise:
        return "elementwise";
    case KernelCategory::Reduction:
        return "reduction";
    case KernelCategory::Communication:
        return "communication";
    case KernelCategory::Memcpy:
        return "memcpy";
    case KernelCategory::Memset:
        return "memset";
    case KernelCategory::Other:
        return "other";
    }
    return "other";
}

KernelCategory kernelCategory(SliceKind kind, std::string_view name) {
    if (kind == SliceKind::Memcpy) return KernelCategory::Memcpy;
    if (kind == SliceKind::Memset) return KernelCategory::Memset;
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const Pattern& p : kPatterns)
        if (lower.find(p.text) != std::string::npos) return p.category;
    return KernelCategory::Other;
}

} // namespace strata
