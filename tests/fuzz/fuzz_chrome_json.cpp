// libFuzzer harness for the Chrome/Kineto JSON reader: any bytes (plain or gzip) must load or give
// an error, never crash, hang or grow memory without bound. Loads through the in-memory entry
// point, single-threaded. See docs/fuzzing.md for the command line.
#include "io/json/chrome_json_reader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const strata::LoadResult r = strata::readChromeJsonBuffer(input, "fuzz-input");
    if (!r.ok() && !r.error) __builtin_trap(); // a failure must say why
    if (r.ok()) {
        // Touch the model a little so that broken invariants show up under ASan.
        volatile size_t n = r.trace->sliceCount() + r.trace->flows().size();
        (void)n;
    }
    return 0;
}
