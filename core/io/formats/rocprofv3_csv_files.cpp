// rocprofv3's CSV trace files (io/formats/amd/rocprofv3_csv.h), recognised by their header line.
#include "io/formats/amd/rocprofv3_csv.h"
#include "io/trace_reader.h"

namespace strata {
namespace {

Recognition recognise(std::string_view head, std::string_view) {
    return isRocprofv3TraceCsv(head) ? kByContent : kNotMine;
}

LoadResult load(const std::string& path, const LoadOptions&) {
    LoadResult r;
    TraceBuilder builder;
    std::string error;
    if (!readRocprofv3Csv(path, builder, &error)) {
        r.error = LoadError{path, 0, 1, error};
        return r;
    }
    r.trace = builder.build();
    return r;
}

} // namespace

extern const TraceReader kRocprofv3CsvReader{
    "rocprofv3-csv", "rocprofv3 CSV trace files", {".csv"}, ReaderKind::Trace, recognise, load,
};

} // namespace strata
