// libFuzzer harness for the Nsight Systems SQLite reader (io/formats/nsys): any bytes, written
// to a file as a user's export would be, must give a trace (maybe with warnings) or a LoadError,
// never a crash, a hang or a sanitizer report. Seeds: tests/data/formats/fuzz_corpus/nsys/ (small
// exports; mutations reach SQLite's page checks and the reader's row handling).
#include "io/trace_loader.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/fuzz_nsys_" + std::to_string(getpid()) + ".sqlite";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    (void)strata::loadTrace(path);
    return 0;
}
