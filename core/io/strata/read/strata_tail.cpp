#include "io/strata/read/strata_tail.h"
#include "io/strata/strata_chunks.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {

namespace fmt = format;
using strata_reader::ChunkSpan;
using strata_reader::sprint;

StrataTail::StrataTail(std::string path) : path_(std::move(path)) {}

StrataTail::~StrataTail() {
    if (fd_ >= 0) ::close(fd_);
}

bool StrataTail::fail(std::string why) {
    error_ = path_ + ": " + std::move(why);
    return false;
}

bool StrataTail::readNew(const RecordFn& f) {
    if (!error_.empty()) return false;
    if (fd_ < 0) {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) return errno == ENOENT ? true : fail(std::strerror(errno));
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return fail("not a regular file");
    }
    // Everything appended since the last call.
    uint8_t buf[1 << 16];
    for (;;) {
        const ssize_t n = ::pread(fd_, buf, sizeof buf, off_t(readTo_));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(std::strerror(errno));
        if (n == 0) break;
        pending_.insert(pending_.end(), buf, buf + n);
        readTo_ += uint64_t(n);
    }
    size_t pos = 0;
    if (!headerSeen_) {
        if (pending_.size() < fmt::kFileHeaderBytes) return true;
        if (std::memcmp(pending_.data(), fmt::kMagic, sizeof fmt::kMagic) != 0)
            return fail("not a .strata file (no \"STRATA\" header)");
        if (pending_[6] != fmt::kVersionMajor)
            return fail(sprint("unsupported .strata version %u.%u", unsigned(pending_[6]),
                               unsigned(pending_[7])));
        headerSeen_ = true;
        pos = fmt::kFileHeaderBytes;
    }
    // The chunks now whole (their offsets relative to pending_: the checks read data + offset);
    // one cut short at the end is being written, left for the next call.
    const uint8_t* data = pending_.data();
    const strata_reader::ChunkScan scan = strata_reader::scanChunks(data, pending_.size(), pos);
    for (const ChunkSpan& chunk : scan.chunks) {
        const uint64_t at = delivered_ + chunk.offset;
        std::string bad = strata_reader::checkChunk(data, chunk, chunks_);
        if (bad.empty())
            bad = strata_reader::forEachRecord(
                data, chunk, [&](fmt::RecordType type, const uint8_t* body, uint32_t bytes) {
                    if (type == fmt::RecordType::EndOfFile) ended_ = true;
                    f(type, body, bytes);
                    return std::string();
                });
        if (!bad.empty())
            return fail(sprint("chunk %" PRIu32 " at byte %" PRIu64 ": ", chunks_, at) + bad);
        ++chunks_;
        pos = chunk.end();
    }
    if (!scan.stopReason.empty() && !scan.truncated)
        return fail(sprint("chunk %" PRIu32 " at byte %" PRIu64 ": ", chunks_,
                           delivered_ + scan.stoppedAt) +
                    scan.stopReason);
    pending_.erase(pending_.begin(), pending_.begin() + std::ptrdiff_t(pos));
    delivered_ += pos;
    return true;
}

} // namespace strata
