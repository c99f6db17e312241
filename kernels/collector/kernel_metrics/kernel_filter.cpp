#include "kernel_metrics/kernel_filter.h"

#include "activities/demangle.h"

namespace strata::kernel_metrics {

namespace {

// A program with more distinct kernels than this is matched anew past it (answers not kept).
constexpr size_t kMaxAnswers = 100000;

} // namespace

std::string demangledKernelName(const char* symbol) {
    return symbol && *symbol ? demangledSymbol(symbol) : std::string("<unnamed kernel>");
}

bool KernelFilter::compile(const std::string& pattern, std::string* error) {
    pattern_ = pattern;
    try {
        regex_ = std::make_unique<std::regex>(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        *error = e.what();
        regex_.reset();
        return false;
    }
    return true;
}

bool KernelFilter::matches(const char* symbol, std::string* name) {
    const std::string key = symbol ? symbol : "";
    std::lock_guard lock(mutex_);
    if (auto it = answers_.find(key); it != answers_.end()) {
        *name = it->second.name;
        return it->second.match;
    }
    Answer a;
    a.name = demangledKernelName(symbol);
    a.match = regex_ && std::regex_search(a.name, *regex_);
    if (answers_.size() < kMaxAnswers) answers_.emplace(key, a);
    *name = a.name;
    return a.match;
}

} // namespace strata::kernel_metrics
