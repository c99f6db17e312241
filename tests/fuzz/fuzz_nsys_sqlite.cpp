// libFuzzer harness for the SQLite readers (io/formats/nsys, io/formats/amd): any bytes, written
// to a file as a user's export would be, must give a trace (maybe with warnings) or an error,
// never a crash, a hang or a sanitizer report. Seeds: tests/data/formats/fuzz_corpus/nsys/ (small
// exports; mutations reach SQLite's page checks and the readers' row handling).
#include "io/formats/amd/rocpd_file.h"
#include "io/formats/amd/rocprof_results.h"
#include "io/formats/amd/rpd_file.h"
#include "io/formats/nsys/nsys_export.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/fuzz_sqlite_" + std::to_string(getpid()) + ".sqlite";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    strata::SqliteDb db;
    if (!db.open(path)) return 0;
    strata::TraceBuilder builder;
    std::string error;
    if (strata::isRocpdFile(db))
        (void)strata::readRocpdFile(db, builder, &error);
    else if (strata::isRpdFile(db))
        (void)strata::readRpdFile(db, builder, &error);
    else if (strata::isRocprofResults(db))
        (void)strata::readRocprofResults(db, builder, &error);
    else if (!strata::NsysExport(db, builder).read(&error))
        return 0;
    (void)builder.build();
    return 0;
}
