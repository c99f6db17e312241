// libFuzzer harness for the protobuf readers (io/formats/xplane: JAX's XSpace; io/formats/perfetto:
// .pftrace): any bytes must give a trace (maybe with warnings) or an error naming the byte, never
// a crash, a hang or a sanitizer report. Seeds: tests/data/formats/fuzz_corpus/protobuf/ (a small
// XSpace and Strata's export of the sample trace).
#include "io/formats/perfetto/pftrace_file.h"
#include "io/formats/xplane/xplane_file.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    std::string error;
    {
        strata::TraceBuilder b;
        if (strata::readXSpace(bytes, b, &error)) (void)b.build();
    }
    {
        strata::TraceBuilder b;
        if (strata::readPftrace(bytes, b, &error)) (void)b.build();
    }
    return 0;
}
