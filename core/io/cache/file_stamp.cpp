#include "io/cache/file_stamp.h"

#include "util/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace strata {
namespace {

constexpr size_t kHashedBytes = size_t(1) << 20; // at each end

uint64_t fnv1a(const unsigned char* p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

// Reads [at, at + n) whole; false on an error or a file now shorter.
bool readAt(int fd, unsigned char* into, size_t n, uint64_t at) {
    size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(fd, into + done, n - done, off_t(at + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        done += size_t(got);
    }
    return true;
}

} // namespace

bool SnapshotSource::sameFile(const SnapshotSource& o) const {
    return path == o.path && size == o.size && mtimeNs == o.mtimeNs && ctimeNs == o.ctimeNs &&
           device == o.device && inode == o.inode && contentHash == o.contentHash;
}

std::optional<SnapshotSource> stampFile(const std::string& path, std::string* error) {
    std::string why;
    struct stat st {};
    const FileDescriptor fd = openRegularFile(path, &why, &st);
    if (!fd.valid()) {
        if (error) *error = path + ": " + why;
        return std::nullopt;
    }
    SnapshotSource s;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    s.path = ec ? path : absolute.lexically_normal().string();
    s.size = uint64_t(st.st_size);
    s.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    s.ctimeNs = int64_t(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
    s.device = uint64_t(st.st_dev);
    s.inode = uint64_t(st.st_ino);
    const size_t head = size_t(std::min<uint64_t>(s.size, kHashedBytes));
    const uint64_t tailAt = std::max<uint64_t>(s.size - head, head);
    const size_t tail = size_t(s.size - tailAt);
    std::vector<unsigned char> bytes(head + tail);
    if (!readAt(fd.get(), bytes.data(), head, 0) ||
        !readAt(fd.get(), bytes.data() + head, tail, tailAt)) {
        if (error) *error = path + ": cannot read: " + std::strerror(errno ? errno : EIO);
        return std::nullopt;
    }
    s.contentHash = fnv1a(bytes.data(), bytes.size(), 1469598103934665603ull);
    return s;
}

} // namespace strata
