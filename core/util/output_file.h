#pragma once
// How Strata writes a file: never half a file, and never replacing what it was not asked to.
//
// - Nothing, or a regular file, at the path: the output is written beside it into a temporary
//   file of a fresh random name created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: nothing planted
//   there is followed or reused) and renamed over the path only when complete — and only if the
//   path is then still nothing or a regular file.
// - A device, or a FIFO that has a reader (/dev/null, /dev/stdout, a pipe to another program):
//   written into as it is, never replaced. A FIFO with no reader is refused at once (writing
//   would block until one comes); a socket or a folder is refused.
// - A symbolic link: a path the user named is followed to what it names, which is written by the
//   rules above (the link stays a link), as cp and a shell's redirection do — except a link in a
//   world-writable sticky folder (/tmp) owned by someone else, which the kernel's own
//   protected_symlinks rule would not follow either, and a link that leads nowhere.
// - Names Strata makes itself (the cache's entries, the digests in an output folder) replace only
//   a regular file: a link, a device or a FIFO there is refused, never followed nor written into.
// Temporary files are removed on error, on abort() and, from a signal handler, by
// removeOutputTemporaries().
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace strata {

struct OutputOptions {
    // The user named the path: a link is followed, a device or a FIFO written into. False: a
    // name Strata made (a cache entry, a digest in an output folder): only a regular file or
    // nothing is there to be replaced; a link, a device or a FIFO is refused, never followed.
    bool named = true;
    mode_t mode = 0666; // a new file's mode, less the umask (0600: private)
};

class OutputFile {
public:
    // The output, open for writing; null and *error (naming the path) when it may not be written.
    static std::unique_ptr<OutputFile> open(const std::string& path, std::string* error,
                                            const OutputOptions& options = {});
    ~OutputFile(); // abort() when not committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::FILE* stream() const { return f_; } // buffered (1 MiB)
    const std::string& path() const { return path_; }
    // A device or FIFO written as it is (no temporary, no rename).
    bool inPlace() const { return temporary_.empty(); }
    // Flushes, syncs a regular file, closes and renames it into place. False and *error on
    // failure (the temporary removed, the path untouched).
    bool commit(std::string* error);
    // Drops what was written: the temporary removed, the path untouched.
    void abort();

private:
    OutputFile() = default;
    std::FILE* f_ = nullptr;
    std::string path_;      // as the caller named it
    std::string target_;    // what is replaced: path_, or where the link path_ leads
    std::string temporary_; // empty: written in place
    int slot_ = -1;         // in the signal handler's list of temporaries
};

// `bytes` written whole to `path` by the rules above (for outputs made in memory: a CSV table, a
// PNG). False and *error (naming the path) when it could not be.
bool writeWholeFile(const std::string& path, std::string_view bytes, std::string* error,
                    const OutputOptions& options = {});

// Removes the temporary files of every OutputFile under way in this process (and nothing else).
// Async-signal-safe: for SIGINT/SIGTERM handlers before they end the process.
void removeOutputTemporaries() noexcept;

} // namespace strata
