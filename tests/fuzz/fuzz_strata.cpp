// libFuzzer harness for the .strata reader: any bytes must give a trace (maybe with a warning)
// or a LoadError, never a crash, a hang or a sanitizer report. Inputs are used three times: as
// they are (the header usually fails); behind a valid header with chunk CRCs repaired so the
// fuzzer reaches the record decoder; and, when they are a .strata file, with each of their own
// chunks' CRC repaired, so that a mutated seed (a model file among them: tests/data/record/
// model-*.strata) reaches the decoders and the model checks rather than the CRC check.
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_format.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace {

// A .strata file with each chunk's CRC made right, as far as its chunk headers lead.
std::string resealed(std::string f) {
    size_t at = strata::format::kFileHeaderBytes;
    while (at + strata::format::kChunkHeaderBytes <= f.size()) {
        uint32_t payload;
        std::memcpy(&payload, f.data() + at + 8, 4);
        if (payload > f.size() - at - strata::format::kChunkHeaderBytes) break;
        const uint32_t crc =
            strata::crc32c(strata::crc32c(0, f.data() + at, 16),
                           f.data() + at + strata::format::kChunkHeaderBytes, payload);
        std::memcpy(f.data() + at + 16, &crc, 4);
        at += strata::format::kChunkHeaderBytes + payload;
    }
    return f;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string raw(reinterpret_cast<const char*>(data), size);
    (void)strata::readStrataBuffer(raw, "fuzz-input");
    if (raw.size() >= strata::format::kFileHeaderBytes && raw.compare(0, 6, "STRATA") == 0)
        (void)strata::readStrataBuffer(resealed(raw), "fuzz-resealed");

    // Header + the input cut into chunks of up to 4 KiB (the first input byte picks the chunk
    // length), each with a correct header and CRC.
    std::string file("STRATA\x01\x00", 8);
    size_t pos = 0;
    const size_t step = size ? 1 + size_t(data[0]) * 16 : 1;
    for (uint32_t seq = 0; pos < size; ++seq) {
        const size_t n = std::min(step, size - pos);
        // Record count: as many 5-byte headers as could fit, a plausible guess.
        const uint32_t header[4] = {strata::format::kChunkMagic, seq, uint32_t(n),
                                    uint32_t(n / 16 + 1)};
        std::string h(reinterpret_cast<const char*>(header), 16);
        const uint32_t crc = strata::crc32c(strata::crc32c(0, h.data(), 16), data + pos, n);
        h.append(reinterpret_cast<const char*>(&crc), 4);
        file += h;
        file.append(reinterpret_cast<const char*>(data + pos), n);
        pos += n;
    }
    (void)strata::readStrataBuffer(file, "fuzz-chunked");
    return 0;
}
