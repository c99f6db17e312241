#pragma once
// How Strata opens a file it reads: never blocking, and only a regular file. A FIFO with no
// writer blocks an open() or a read() forever and a device reads without end, so a FIFO, a
// device, a socket or a folder given as a trace, a digest, a file list or planted as a cache
// entry is refused at once with an error naming it. Every reader opens its input here.
#include <cstdint>
#include <cstdio>
#include <string>
#include <sys/stat.h>

namespace strata {

// A file descriptor closed when it goes.
class FileDescriptor {
public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd) : fd_(fd) {}
    FileDescriptor(FileDescriptor&& o) noexcept : fd_(o.release()) {}
    FileDescriptor& operator=(FileDescriptor&& o) noexcept;
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor();
    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    int fd_ = -1;
};

// What a file that is not a regular one is, for messages: "a FIFO (named pipe)", "a folder",
// "a character device", "a block device", "a socket", "a symbolic link".
std::string fileKindName(mode_t mode);

struct InputOpen {
    bool noFollow = false; // a symbolic link is refused (files Strata names itself: the cache)
    // Refused unless owned by this user (the cache's own entries).
    bool ownedByMe = false;
};

// `path` opened for reading (close-on-exec, blocking reads), `*st` its status; or an invalid
// descriptor and *error saying why without the path ("is a FIFO (named pipe), not a regular
// file"; "cannot open: No such file or directory").
FileDescriptor openRegularFile(const std::string& path, std::string* error,
                               struct stat* st = nullptr, InputOpen how = {});
// The same as a FILE* ("rb"), or null.
std::FILE* fopenRegularFile(const std::string& path, std::string* error);
// The whole of a regular file of at most maxBytes; false and *error otherwise.
bool readRegularFile(const std::string& path, std::string* out, std::string* error,
                     uint64_t maxBytes);

} // namespace strata
