#include "process/other_tool.h"

#include "contract/collector_env.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <vector>

extern char** environ;

namespace strata {

std::string likelyOtherTool(const char* oldName, const void* selfAddress) {
    std::vector<std::string> hints;
    if (oldName && *oldName)
        hints.push_back(std::string("CUPTI names the current subscriber \"") + oldName + "\"");
    for (char** e = environ; e && *e; ++e) {
        if (std::strncmp(*e, "NSYS_", 5) == 0) {
            hints.push_back("Nsight Systems (NSYS_* is set)");
            break;
        }
    }
    if (const char* inj = std::getenv(collector_env::kCudaInjection)) {
        Dl_info self{};
        if (dladdr(selfAddress, &self) && self.dli_fname) {
            char a[4096], b[4096];
            const bool same =
                realpath(inj, a) && realpath(self.dli_fname, b) && std::strcmp(a, b) == 0;
            if (!same)
                hints.push_back(std::string("another injection library: CUDA_INJECTION64_PATH=") +
                                inj);
        }
    }
    struct Search {
        bool kineto = false;
    } search;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* p) {
            const char* n = info->dlpi_name;
            if (n && (std::strstr(n, "kineto") || std::strstr(n, "libtorch_cuda")))
                static_cast<Search*>(p)->kineto = true;
            return 0;
        },
        &search);
    if (search.kineto)
        hints.push_back("PyTorch's Kineto profiler in this process (libtorch_cuda is loaded)");
    std::string out;
    for (const auto& h : hints) out += (out.empty() ? "" : "; ") + h;
    return out.empty() ? "unknown (Nsight Systems/Compute, cuda-gdb, compute-sanitizer or an "
                         "in-process profiler)"
                       : out;
}

} // namespace strata
