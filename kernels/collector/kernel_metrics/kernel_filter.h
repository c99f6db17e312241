#pragma once
// Which launches --kernel-metrics measures: an ECMAScript regular expression searched in the
// kernel's demangled name (as the trace names the kernel: "gemm_tile<float>(float*, int)"), the
// answer kept per symbol so that a kernel launched a million times is matched once. Thread-safe.
#include <cstddef>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace strata::kernel_metrics {

class KernelFilter {
public:
    // False with *error saying why when `pattern` is no ECMAScript regular expression.
    bool compile(const std::string& pattern, std::string* error);
    const std::string& pattern() const { return pattern_; }
    // Whether the kernel of this launch symbol (mangled, as CUPTI's launch callback gives it, or
    // a plain C name) matches; *name gets its demangled name.
    bool matches(const char* symbol, std::string* name);

private:
    struct Answer {
        bool match = false;
        std::string name;
    };
    std::string pattern_;
    std::unique_ptr<std::regex> regex_;
    std::mutex mutex_;
    std::unordered_map<std::string, Answer> answers_; // by symbol
};

// "_Z9gemm_tilev" -> "gemm_tile()"; a name that is not a mangled C++ name stays as it is.
std::string demangledKernelName(const char* symbol);

} // namespace strata::kernel_metrics
