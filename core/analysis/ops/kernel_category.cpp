#include "analysis/ops/kernel_category.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

namespace {

struct Pattern {
    std::string_view text;
    KernelCategory category;
};

// Checked in order on the lower-cased name; ROCm's copy kernels first, communication and
// attention before GEMM (NCCL and flash-attention kernels contain "gemm"-like parts), reductions
// before elementwise.
constexpr Pattern kPatterns[] = {
    // ROCm's copy and fill kernels (ROCm 7.1 and older write them as kernels).
    {"__amd_rocclr_copybuffer", KernelCategory::Memcpy},
    {"memory_copy_host_to_device", KernelCategory::Memcpy},
    {"memory_copy_device_to_host", KernelCategory::Memcpy},
    {"memory_copy_device_to_device", KernelCategory::Memcpy},
    {"__amd_rocclr_fillbuffer", KernelCategory::Memset},
    {"nccl", KernelCategory::Communication},
    {"rccl", KernelCategory::Communication},
    {"allreduce", KernelCategory::Communication},
    {"all_reduce", KernelCategory::Communication},
    {"allgather", KernelCategory::Communication},
    {"all_gather", KernelCategory::Communication},
    {"reducescatter", KernelCategory::Communication},
    {"reduce_scatter", KernelCategory::Communication},
    {"alltoall", KernelCategory::Communication},
    {"cross_device_reduce", KernelCategory::Communication}, // vLLM's custom all-reduce
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
    // One pass over the name: at each character, the patterns that begin with it (ASCII
    // lower-cased: the patterns are ASCII); the first in table order that occurs anywhere wins.
    // A search per pattern cost 55 scans of the name, what a trace of a million kernel names
    // felt (issue 42).
    static const auto byFirst = [] {
        std::array<std::vector<uint8_t>, 256> t;
        for (size_t k = 0; k < std::size(kPatterns); ++k)
            t[uint8_t(kPatterns[k].text[0])].push_back(uint8_t(k));
        return t;
    }();
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    size_t best = std::size(kPatterns);
    for (size_t i = 0; i < name.size(); ++i)
        for (uint8_t k : byFirst[uint8_t(lower(name[i]))]) {
            const std::string_view p = kPatterns[k].text;
            if (k >= best || p.size() > name.size() - i) continue;
            size_t j = 1;
            while (j < p.size() && lower(name[i + j]) == p[j]) ++j;
            if (j == p.size()) best = k;
        }
    return best < std::size(kPatterns) ? kPatterns[best].category : KernelCategory::Other;
}

} // namespace strata
