#include "util/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace strata {

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

FileDescriptor::~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
}

std::string fileKindName(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

namespace {

std::string notRegular(mode_t mode) {
    return "is " + fileKindName(mode) +
           ", not a regular file: Strata reads files (write it to one first)";
}

} // namespace

FileDescriptor openRegularFile(const std::string& path, std::string* error, struct stat* out,
                               InputOpen how) {
    struct stat st {};
    // Refused before it is opened where it can be told (opening some devices does something);
    // then checked again on what was opened, which is what counts.
    const int statRc = how.noFollow ? ::lstat(path.c_str(), &st) : ::stat(path.c_str(), &st);
    if (statRc == 0 && !S_ISREG(st.st_mode)) {
        *error = notRegular(st.st_mode);
        return {};
    }
    const int flags =
        O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (how.noFollow ? O_NOFOLLOW : 0);
    FileDescriptor fd(::open(path.c_str(), flags));
    if (!fd.valid()) {
        *error = errno == ELOOP && how.noFollow
                     ? notRegular(S_IFLNK)
                     : std::string("cannot open: ") + std::strerror(errno);
        return {};
    }
    if (::fstat(fd.get(), &st) != 0) {
        *error = std::string("cannot stat: ") + std::strerror(errno);
        return {};
    }
    if (!S_ISREG(st.st_mode)) {
        *error = notRegular(st.st_mode);
        return {};
    }
    if (how.ownedByMe && st.st_uid != ::geteuid()) {
        *error = "is owned by another user (uid " + std::to_string(st.st_uid) + ")";
        return {};
    }
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    if (out) *out = st;
    return fd;
}

std::FILE* fopenRegularFile(const std::string& path, std::string* error) {
    FileDescriptor fd = openRegularFile(path, error);
    if (!fd.valid()) return nullptr;
    std::FILE* f = ::fdopen(fd.get(), "rb");
    if (!f) {
        *error = std::string("cannot open: ") + std::strerror(errno);
        return nullptr;
    }
    fd.release();
    return f;
}

bool readRegularFile(const std::string& path, std::string* out, std::string* error,
                     uint64_t maxBytes) {
    struct stat st {};
    FileDescriptor fd = openRegularFile(path, error, &st);
    if (!fd.valid()) return false;
    if (uint64_t(st.st_size) > maxBytes) {
        *error = "is larger than " + std::to_string(maxBytes) + " bytes (" +
                 std::to_string(st.st_size) + ")";
        return false;
    }
    out->assign(size_t(st.st_size), '\0');
    size_t at = 0;
    while (at < out->size()) {
        const ssize_t n = ::read(fd.get(), out->data() + at, out->size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = std::string("cannot read: ") + std::strerror(errno);
            return false;
        }
        if (n == 0) break; // shorter than it was: what is there
        at += size_t(n);
    }
    out->resize(at);
    return true;
}

} // namespace strata
