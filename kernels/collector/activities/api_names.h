#pragma once
// Names of CUDA runtime and driver API calls by CUPTI callback id ("cudaLaunchKernel", with
// CUPTI's "_v7000"-style version suffix removed), and the list of noisy getters the collector
// does not record (cudaGetDevice, cudaGetLastError, cuCtxGetCurrent, ...).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Getter APIs called so often (and so cheap) that recording them only adds overhead and noise.
// Names without version suffix; runtime and driver together.
std::span<const std::string_view> noisyApiNames();
bool isNoisyApi(std::string_view name);
// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"; "cuMemcpyHtoD_v2" -> "cuMemcpyHtoD".
std::string_view stripApiVersion(std::string_view name);

class ApiNameTable {
public:
    // Fills both tables through cuptiGetCallbackName (ids without a name get "cuda_runtime_<id>" /
    // "cuda_driver_<id>").
    void build();
    // Valid after build(); out-of-range ids give a generated name and are not noisy.
    const std::string& runtimeName(uint32_t cbid);
    const std::string& driverName(uint32_t cbid);
    bool runtimeNoisy(uint32_t cbid) const {
        return cbid < runtimeNoisy_.size() && runtimeNoisy_[cbid];
    }
    bool driverNoisy(uint32_t cbid) const {
        return cbid < driverNoisy_.size() && driverNoisy_[cbid];
    }
    // Callback ids of the noisy APIs (for cuptiActivityEnable{Runtime,Driver}Api(cbid, 0)).
    std::vector<uint32_t> noisyRuntimeIds() const;
    std::vector<uint32_t> noisyDriverIds() const;

private:
    std::vector<std::string> runtime_, driver_;
    std::vector<bool> runtimeNoisy_, driverNoisy_;
    std::string scratch_;
};

} // namespace strata
