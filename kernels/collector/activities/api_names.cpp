#include "activities/api_names.h"

#include <cupti.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace strata {

namespace {
// Sorted, for binary search. Getters and error queries that CUDA libraries call around every
// launch (cuBLAS/PyTorch call cudaGetDevice/cuCtxGetCurrent many times per op).
constexpr std::array<std::string_view, 40> kNoisy = {
    "cuCtxGetApiVersion",
    "cuCtxGetCurrent",
    "cuCtxGetDevice",
    "cuCtxGetFlags",
    "cuCtxGetId",
    "cuCtxGetStreamPriorityRange",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDevicePrimaryCtxGetState",
    "cuDriverGetVersion",
    "cuFuncGetAttribute",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuGetProcAddress",
    "cuKernelGetAttribute",
    "cuKernelGetFunction",
    "cuPointerGetAttribute",
    "cuPointerGetAttributes",
    "cuStreamGetCaptureInfo",
    "cuStreamGetCtx",
    "cuStreamIsCapturing",
    "cudaDeviceGetAttribute",
    "cudaDriverGetVersion",
    "cudaFuncGetAttributes",
    "cudaGetDevice",
    "cudaGetDeviceCount",
    "cudaGetDeviceProperties",
    "cudaGetDriverEntryPoint",
    "cudaGetErrorName",
    "cudaGetErrorString",
    "cudaGetFuncBySymbol",
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaPointerGetAttributes",
    "cudaRuntimeGetVersion",
    "cudaStreamGetCaptureInfo",
    "cudaStreamGetPriority",
    "cudaStreamIsCapturing",
    "cudaThreadExchangeStreamCaptureMode",
};
} // namespace

std::span<const std::string_view> noisyApiNames() {
    return kNoisy;
}

bool isNoisyApi(std::string_view name) {
    return std::binary_search(kNoisy.begin(), kNoisy.end(), stripApiVersion(name));
}

std::string_view stripApiVersion(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v + 2 >= name.size()) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

static void fill(CUpti_CallbackDomain domain, uint32_t size, const char* prefix,
                 std::vector<std::string>& names, std::vector<bool>& noisy) {
    names.assign(size, std::string());
    noisy.assign(size, false);
    for (uint32_t id = 0; id < size; ++id) {
        const char* n = nullptr;
        if (cuptiGetCallbackName(domain, id, &n) == CUPTI_SUCCESS && n && *n) {
            names[id] = std::string(stripApiVersion(n));
            noisy[id] = isNoisyApi(names[id]);
        } else {
            char buf[48];
            std::snprintf(buf, sizeof buf, "%s_%u", prefix, id);
            names[id] = buf;
        }
    }
}

void ApiNameTable::build() {
    fill(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, "cuda_runtime", runtime_,
         runtimeNoisy_);
    fill(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, "cuda_driver", driver_,
         driverNoisy_);
}

const std::string& ApiNameTable::runtimeName(uint32_t cbid) {
    if (cbid < runtime_.size()) return runtime_[cbid];
    char buf[48];
    std::snprintf(buf, sizeof buf, "cuda_runtime_%u", cbid);
    scratch_ = buf;
    return scratch_;
}

const std::string& ApiNameTable::driverName(uint32_t cbid) {
    if (cbid < driver_.size()) return driver_[cbid];
    char buf[48];
    std::snprintf(buf, sizeof buf, "cuda_driver_%u", cbid);
    scratch_ = buf;
    return scratch_;
}

std::vector<uint32_t> ApiNameTable::noisyRuntimeIds() const {
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < runtimeNoisy_.size(); ++i)
        if (runtimeNoisy_[i]) ids.push_back(i);
    return ids;
}

std::vector<uint32_t> ApiNameTable::noisyDriverIds() const {
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < driverNoisy_.size(); ++i)
        if (driverNoisy_[i]) ids.push_back(i);
    return ids;
}

} // namespace strata
