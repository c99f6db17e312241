#pragma once
// Where an export's bytes go: a file written under a temporary name beside the final one and
// renamed into place only when everything was written (an error, a full disk or a cancel leave
// no half-written file under the final name), optionally gzip-compressed on a second thread; or
// standard output.
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

// Removes the temporary files (OUT.partial-XXXXXX) of the exports under way in this process and
// nothing else. Async-signal-safe (unlink only): a SIGINT/SIGTERM handler calls it before the
// process ends, so that a partial file never survives an interrupted export.
void removeExportTemporaries() noexcept;

// `path` "-" is standard output (never gzip'd unless asked). Null and *error when the
// temporary file cannot be created (the folder is missing or not writable).
std::unique_ptr<ExportSink> openExportSink(const std::string& path, bool gzip, std::string* error);

} // namespace strata
