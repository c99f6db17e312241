#include "native/symbolizer.h"

#if STRATA_NATIVE_SAMPLING
#include <elfutils/libdwfl.h>
#endif

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

namespace strata::native {

#if STRATA_NATIVE_SAMPLING

// The libdwfl functions used, looked up in the dlopen()ed libdw.
struct Symbolizer::Api {
    decltype(&dwfl_begin) begin = nullptr;
    decltype(&dwfl_end) end = nullptr;
    decltype(&dwfl_report_begin) reportBegin = nullptr;
    decltype(&dwfl_linux_proc_report) procReport = nullptr;
    decltype(&dwfl_report_end) reportEnd = nullptr;
    decltype(&dwfl_addrmodule) addrModule = nullptr;
    decltype(&dwfl_module_addrinfo) addrInfo = nullptr;
    decltype(&dwfl_module_info) moduleInfo = nullptr;
    decltype(&dwfl_linux_proc_find_elf) findElf = nullptr;
    decltype(&dwfl_standard_find_debuginfo) findDebuginfo = nullptr;
    Dwfl_Callbacks callbacks{};
    char* debuginfoPath = nullptr;
};

namespace {

int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// find_debuginfo when DEBUGINFOD_URLS is set: libdw would ask those servers, and the target
// would wait on them. Only the modules' own symbols then.
int noSeparateDebuginfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*,
                        GElf_Word, char**) {
    return -1;
}

// The symbol as its function is called: its version cut ("clock_gettime@@GLIBC_2.17" is
// clock_gettime, as perf shows it) and a C++ name demangled.
std::string demangled(const char* symbol) {
    std::string plain(symbol);
    if (const size_t at = plain.find('@'); at != std::string::npos && at > 0) plain.resize(at);
    int status = 0;
    char* d = abi::__cxa_demangle(plain.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !d) return plain;
    std::string s(d);
    std::free(d);
    return s;
}

} // namespace

Symbolizer::~Symbolizer() {
    if (api_ && dwfl_) api_->end(static_cast<Dwfl*>(dwfl_));
    delete api_;
}

bool Symbolizer::load(std::string* why) {
    void* lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        *why = "libdw.so.1 not found (Debian: libdw1), so native stacks cannot be named";
        return false;
    }
    auto* a = new Api;
    const auto find = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
        return fn != nullptr;
    };
    const bool all =
        find(a->begin, "dwfl_begin") && find(a->end, "dwfl_end") &&
        find(a->reportBegin, "dwfl_report_begin") &&
        find(a->procReport, "dwfl_linux_proc_report") && find(a->reportEnd, "dwfl_report_end") &&
        find(a->addrModule, "dwfl_addrmodule") && find(a->addrInfo, "dwfl_module_addrinfo") &&
        find(a->moduleInfo, "dwfl_module_info") && find(a->findElf, "dwfl_linux_proc_find_elf") &&
        find(a->findDebuginfo, "dwfl_standard_find_debuginfo");
    if (!all) {
        delete a;
        *why = "libdw.so.1 lacks a libdwfl function this collector uses";
        return false;
    }
    const char* urls = std::getenv("DEBUGINFOD_URLS");
    a->callbacks.find_elf = a->findElf;
    a->callbacks.find_debuginfo = urls && *urls ? noSeparateDebuginfo : a->findDebuginfo;
    a->callbacks.debuginfo_path = &a->debuginfoPath;
    api_ = a;
    if (!report()) {
        *why = "libdwfl cannot read this process's mappings";
        return false;
    }
    return true;
}

bool Symbolizer::report() {
    if (!dwfl_) dwfl_ = api_->begin(&api_->callbacks);
    auto* d = static_cast<Dwfl*>(dwfl_);
    if (!d) return false;
    api_->reportBegin(d);
    const bool ok = api_->procReport(d, getpid()) == 0;
    api_->reportEnd(d, nullptr, nullptr);
    reportedNs_ = monotonicNs();
    return ok;
}

std::string Symbolizer::nameOf(uintptr_t address, bool returnAddress) {
    if (!dwfl_) return {};
    const uintptr_t at = returnAddress && address ? address - 1 : address;
    if (auto it = functions_.upper_bound(at); it != functions_.begin() && (--it)->second.end > at)
        return it->second.name;
    auto* d = static_cast<Dwfl*>(dwfl_);
    Dwfl_Module* m = api_->addrModule(d, at);
    if (!m && monotonicNs() - reportedNs_ > 100'000'000) {
        report(); // a library loaded since
        m = api_->addrModule(d, at);
    }
    if (!m) return {};
    GElf_Off offset = 0;
    GElf_Sym sym{};
    if (const char* name = api_->addrInfo(m, at, &offset, &sym, nullptr, nullptr, nullptr);
        name && *name) {
        std::string plain = demangled(name);
        if (sym.st_size > 0 && offset < sym.st_size)
            functions_[at - offset] = {at - offset + uintptr_t(sym.st_size), plain};
        return plain;
    }
    // A function without a symbol here (a library's internal one, its debug file absent): the
    // module's name, so its samples add up in one place.
    const char* module =
        api_->moduleInfo(m, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    const char* base = module ? std::strrchr(module, '/') : nullptr;
    return std::string("[") + (base ? base + 1 : module ? module : "unknown") + "]";
}

#else // built without libdwfl's headers

struct Symbolizer::Api {};

Symbolizer::~Symbolizer() = default;

bool Symbolizer::load(std::string* why) {
    *why = "this collector was built without libdwfl's headers (libdw-dev)";
    return false;
}

bool Symbolizer::report() {
    return false;
}

std::string Symbolizer::nameOf(uintptr_t, bool) {
    return {};
}

#endif

} // namespace strata::native
