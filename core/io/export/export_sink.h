#pragma once
// Where an export's bytes go: a file written as util/output_file.h says (under a temporary name
// beside the final one, renamed into place only when everything was written: an error, a full
// disk or a cancel leave no half-written file under the final name; a device or a FIFO written
// into, never replaced), optionally gzip-compressed on a second thread; or standard output.
// util/output_file.h's removeOutputTemporaries() removes the temporaries from a signal handler.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace strata {

class ExportSink {
public:
    virtual ~ExportSink() = default;
    // Takes the bytes (may be called from one thread only). False once a write failed.
    virtual bool write(std::string_view bytes) = 0;
    // Completes the output (flush, gzip trailer, rename into place). False and error() on failure.
    virtual bool commit() = 0;
    // Drops the output: the temporary file is removed, the final name untouched.
    virtual void abort() = 0;
    virtual std::string error() const = 0;
    virtual size_t bytesOut() const = 0; // after compression
};

// `path` "-" is standard output (never gzip'd unless asked). Null and *error when the output may
// not be written (the folder is missing or not writable, a FIFO no program reads, a folder...).
std::unique_ptr<ExportSink> openExportSink(const std::string& path, bool gzip, std::string* error);

} // namespace strata
