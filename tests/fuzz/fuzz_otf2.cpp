// libFuzzer harness for the OTF2 reader (io/formats/otf2, through Debian's libotf2). An archive is
// a folder of files, so an input is ONE of them: its first byte says which, the rest is that
// file's content; the archive's other files are the real ones of a Score-P archive
// (tests/data/formats/otf2_ping_pong/, read once at start; STRATA_FUZZ_OTF2_ARCHIVE names another
// folder of the same layout). Each process writes its archive into a private folder
// (/tmp/fuzz_otf2_<pid>/) and reads it with readOtf2Archive(), as the registry's OTF2 reader does:
// a trace (maybe with warnings) or an error, never a crash, a hang, a sanitizer report or OTF2
// printing to stderr.
//
// The first byte b:  b % 6 picks the file   0 traces.otf2 (anchor)   1 traces.def (global defs)
//                                           2 traces/0.evt   3 traces/0.def
//                                           4 traces/1.evt   5 traces/1.def
//                    b >= 0xF0 leaves that file out of the archive (the rest of the input unused).
// Seeds: tests/data/formats/fuzz_corpus/otf2/ (each file as it is, an archive missing its global
// definitions, one missing a location's definitions, a torn .evt).
#include "io/formats/otf2/otf2_archive.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 6> kFiles{"traces.otf2",  "traces.def",   "traces/0.evt",
                                            "traces/0.def", "traces/1.evt", "traces/1.def"};
std::array<std::string, 6> base;
fs::path folder;

bool readFile(const fs::path& p, std::string& out) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

void writeFile(const fs::path& p, const char* data, size_t size) {
    if (FILE* f = std::fopen(p.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
}

void removeFolder() {
    std::error_code ec;
    fs::remove_all(folder, ec);
}

} // namespace

// Debian's libotf2 (not instrumented, not Strata's) leaks a few bytes on some malformed
// definitions (OTF2_IdMap_Create under OTF2_DefReader_ReadDefinitions for a damaged mapping table
// in a location's .def, seen in the first run): leaks whose stack passes through it are not
// findings. The callbacks Strata gives it run under its frames too; they only fill the
// TraceBuilder, which owns what it allocates.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:libopen-trace-format2.so\n";
}

// libotf2 sizes some arrays by counts read from an event file: a damaged one asks malloc for
// gigabytes at once, touches none of it and gives up on the record when the bytes run out (11 MB
// resident in a normal build). Under ASan the shadow of such a block alone passes the RSS limit,
// so here, as on a machine without that memory, an allocation over 2 GB fails; libotf2 then says
// so and the read stops there.
extern "C" const char* __asan_default_options() {
    return "allocator_may_return_null=1:max_allocation_size_mb=2048";
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* env = std::getenv("STRATA_FUZZ_OTF2_ARCHIVE");
    const fs::path from = env && *env ? fs::path(env) : fs::path(STRATA_OTF2_ARCHIVE);
    for (size_t i = 0; i < kFiles.size(); ++i) {
        if (!readFile(from / kFiles[i], base[i])) {
            std::fprintf(stderr, "fuzz_otf2: cannot read %s (set STRATA_FUZZ_OTF2_ARCHIVE)\n",
                         (from / kFiles[i]).c_str());
            std::exit(1);
        }
    }
    folder = fs::temp_directory_path() / ("fuzz_otf2_" + std::to_string(getpid()));
    fs::create_directories(folder / "traces");
    std::atexit(removeFolder);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const size_t which = data[0] % kFiles.size();
    const bool leftOut = data[0] >= 0xF0;
    for (size_t i = 0; i < kFiles.size(); ++i) {
        const fs::path p = folder / kFiles[i];
        if (i != which)
            writeFile(p, base[i].data(), base[i].size());
        else if (leftOut)
            ::unlink(p.c_str());
        else
            writeFile(p, reinterpret_cast<const char*>(data) + 1, size - 1);
    }
    strata::TraceBuilder builder;
    std::string error;
    if (strata::readOtf2Archive((folder / kFiles[0]).string(), builder, &error))
        (void)builder.build();
    else if (error.empty())
        std::abort(); // a refusal must say why
    return 0;
}
