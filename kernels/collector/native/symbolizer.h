#pragma once
// Names of native code addresses in this process: elfutils' libdwfl (Debian's libdw1) over the
// process's own mappings, loaded with dlopen only when native sampling is asked for. A name is
// the function's symbol, demangled ("known::spin(long)"); an address in no symbol is its
// module's name in brackets ("[libcrypto.so.3]", as perf and Nsight Systems show it). Libraries
// loaded after the last look at the mappings are found by looking again (at most every 100 ms).
// Symbols come from the modules' own .symtab/.dynsym, and from separate debug files only where
// they lie on this machine (debuginfod is never asked: the target must not wait on the network).
#include <cstdint>
#include <map>
#include <string>

namespace strata::native {

class Symbolizer {
public:
    Symbolizer() = default;
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;
    // Loads libdw and reads the process's mappings. False with `why` when it cannot.
    bool load(std::string* why);
    // The name of the function holding `address`, or "" when no module holds it yet (one loaded
    // since the mappings were last read, until they are read again: ask later). `returnAddress`:
    // the address a call returns to (every frame but the innermost), looked up one byte
    // earlier, in the call itself.
    std::string nameOf(uintptr_t address, bool returnAddress);

private:
    struct Api;
    bool report(); // (re)reads /proc/self/maps
    // The functions named so far by their address ranges [start, end): an address in one of
    // them needs no lookup (a busy function is sampled at many addresses).
    struct Function {
        uintptr_t end;
        std::string name;
    };
    std::map<uintptr_t, Function> functions_;
    Api* api_ = nullptr;
    void* dwfl_ = nullptr;
    int64_t reportedNs_ = 0;
};

} // namespace strata::native
