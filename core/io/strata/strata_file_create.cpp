#include "io/strata/strata_file_create.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

std::string systemError(const std::string& path, const char* what, int why) {
    return path + ": " + what + ": " + std::strerror(why);
}

// `fd` is still the file `path` names (the same inode, not a link to it).
bool namesFile(int fd, const std::string& path) {
    struct stat byFd {
    }, byName{};
    return fstat(fd, &byFd) == 0 && lstat(path.c_str(), &byName) == 0 &&
           byFd.st_dev == byName.st_dev && byFd.st_ino == byName.st_ino;
}

// flock(LOCK_EX) without blocking for long: a question (strataFileBeingWritten) or a remover
// holds the lock of a fresh file for a moment at most. About a second, then false.
bool lockSoon(int fd) {
    for (int i = 0; i < 1000; ++i) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
        if (errno != EWOULDBLOCK && errno != EINTR) return false;
        const timespec step{0, 1'000'000};
        nanosleep(&step, nullptr);
    }
    return false;
}

int createTruncating(const std::string& path, std::string* error) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        *error = systemError(path, "cannot create", errno);
        return -1;
    }
    flock(fd, LOCK_EX | LOCK_NB); // a hint for the launcher, as for the other modes
    return fd;
}

// Created with O_EXCL (never over an existing name, never through a link) and locked before
// anything is written. *exists: the name was taken.
int createExclusive(const std::string& path, std::string* error, bool* exists) {
    *exists = false;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int why = errno;
        *exists = why == EEXIST;
        *error = *exists ? path + " exists (another recording writing to the same path, or an "
                                  "earlier one): it is left as it is, and this recording's trace "
                                  "was not written there"
                         : systemError(path, "cannot create", why);
        return -1;
    }
    // Between the create and the lock, a --force recording may have taken the name away.
    if (!lockSoon(fd) || !namesFile(fd, path)) {
        close(fd);
        *error = path + ": taken over by another recording (--force) while being created: this "
                        "recording's trace was not written";
        return -1;
    }
    return fd;
}

// Removes `path` if it is a regular file no live writer holds (its lock is free). True when the
// name is free now.
bool removeFinished(const std::string& path, std::string* error) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return true;
        *error = systemError(path, "cannot replace", errno);
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        *error = path + " is a symbolic link: not replaced (--force replaces an earlier "
                        "recording's file, never what a link points to)";
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        *error = path + " is not a regular file: not replaced (--force replaces an earlier "
                        "recording's file only)";
        return false;
    }
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return true;
        *error = systemError(path, "cannot replace", errno);
        return false;
    }
    bool ok = false;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0)
        *error = path + " is being written by another recording (it holds the file's lock): "
                        "not replaced, even with --force";
    else if (!namesFile(fd, path))
        *error = path + " changed while being replaced: left as it is";
    else if (unlink(path.c_str()) != 0 && errno != ENOENT)
        *error = systemError(path, "cannot remove the earlier file", errno);
    else
        ok = true;
    close(fd); // releases the lock
    return ok;
}

} // namespace

int createStrataFile(const std::string& path, CreateMode mode, std::string* error) {
    if (mode == CreateMode::Truncate) return createTruncating(path, error);
    bool exists = false;
    int fd = createExclusive(path, error, &exists);
    if (fd >= 0 || !exists || mode != CreateMode::ReplaceFinished) return fd;
    if (!removeFinished(path, error)) return -1;
    fd = createExclusive(path, error, &exists);
    if (fd < 0 && exists)
        *error = path + " was created by another recording while this one replaced the earlier "
                        "file: it is left as it is, and this recording's trace was not written";
    return fd;
}

bool strataFileBeingWritten(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd); // releases a shared lock taken by the question
    return held;
}

} // namespace strata
