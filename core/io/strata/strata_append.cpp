#include "io/strata/strata_append.h"

#include "contract/collector_env.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_trace_writer.h"
#include "util/shell_words.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace strata {
namespace {

// Why a run's file ends in a torn chunk: its filesystem full (less than 1 MiB free: the writer
// ran out of room), else the target stopped while writing it.
std::string tornTailCause(int fd) {
    struct statvfs st {};
    if (fstatvfs(fd, &st) == 0) {
        const unsigned long long free = (unsigned long long)st.f_bavail * st.f_frsize;
        if (free < (1ull << 20))
            return "the disk is full (" + std::to_string(free) +
                   " bytes free on its filesystem): the writer ran out of room in its last chunk, "
                   "and nothing after it was recorded";
    }
    return "the target was stopped while writing its last chunk";
}

namespace fmt = format;

// The file's descriptor and its mapping, released together.
struct MappedFile {
    int fd = -1;
    const uint8_t* data = nullptr;
    size_t size = 0;
    ~MappedFile() {
        if (data) munmap(const_cast<uint8_t*>(data), size);
        if (fd >= 0) close(fd); // also releases the flock
    }
};

bool endsWithEndOfFile(const uint8_t* data, const strata_reader::ChunkSpan& last) {
    bool eof = false;
    strata_reader::forEachRecord(data, last, [&](fmt::RecordType type, const uint8_t*, uint32_t) {
        eof = type == fmt::RecordType::EndOfFile;
        return std::string();
    });
    return eof;
}

} // namespace

AppendResult appendRunRecord(const std::string& path, const RunInfo& run) {
    AppendResult r;
    MappedFile f;
    f.fd = open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC); // never through a link
    if (f.fd < 0) {
        r.note = path + ": cannot open: " + std::strerror(errno);
        return r;
    }
    struct stat st {};
    if (fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        r.note = path + ": not a regular file";
        return r;
    }
    f.size = size_t(st.st_size);
    if (f.size < fmt::kFileHeaderBytes) {
        r.note = path + ": not a .strata file (" + std::to_string(f.size) + " bytes)";
        return r;
    }
    // The collector's writer holds an exclusive lock while it writes; a forked child that
    // inherited the descriptor holds it too, but then the file was closed (end-of-file record).
    const bool locked = flock(f.fd, LOCK_EX | LOCK_NB) == 0;
    void* map = mmap(nullptr, f.size, PROT_READ, MAP_SHARED, f.fd, 0);
    if (map == MAP_FAILED) {
        r.note = path + ": cannot map: " + std::strerror(errno);
        return r;
    }
    f.data = static_cast<const uint8_t*>(map);
    if (std::memcmp(f.data, fmt::kMagic, sizeof fmt::kMagic) != 0 ||
        f.data[6] != fmt::kVersionMajor) {
        r.note = path + ": not a .strata " + std::to_string(fmt::kVersionMajor) + ".x file";
        return r;
    }
    strata_reader::ChunkScan scan = strata_reader::scanChunks(f.data, f.size);
    size_t keep = scan.stopReason.empty() ? f.size : scan.stoppedAt;
    std::string damage = scan.stopReason;
    // A torn last write can also leave a whole-looking chunk whose CRC does not match.
    if (!scan.chunks.empty()) {
        const auto& last = scan.chunks.back();
        if (std::string bad =
                strata_reader::checkChunk(f.data, last, uint32_t(scan.chunks.size() - 1));
            !bad.empty()) {
            keep = last.offset;
            damage = bad;
            scan.chunks.pop_back();
        }
    }
    const bool closed =
        !scan.chunks.empty() && keep == f.size && endsWithEndOfFile(f.data, scan.chunks.back());
    if (!locked && !closed) {
        r.note = path + ": still being written by another process (one that outlived the target?)"
                        ": the run record was not appended";
        return r;
    }
    const size_t cut = f.size - keep;
    if (cut > fmt::kChunkHeaderBytes + fmt::kMaxChunkPayload) {
        r.note = path + ": " + damage + " at byte " + std::to_string(keep) + ", and " +
                 std::to_string(cut) +
                 " bytes after it: more than one torn write, left as it is; the run record was "
                 "not appended";
        return r;
    }
    std::string warning;
    if (cut > 0) {
        warning = "cut a damaged tail of " + std::to_string(cut) + " bytes at byte " +
                  std::to_string(keep) + " (" + damage +
                  ") before appending the run record: " + tornTailCause(f.fd);
        r.note = warning;
    }
    StrataTraceWriter w;
    std::string error;
    if (!w.openAppend(f.fd, path, keep, uint32_t(scan.chunks.size()), &error)) {
        r.note = error;
        return r;
    }
    if (!warning.empty()) w.warning(warning);
    w.run(run);
    if (!w.close()) {
        r.note = w.lastError();
        return r;
    }
    r.ok = true;
    return r;
}

bool writeRunOnlyTrace(const std::string& path, const RunInfo& run, std::string* error,
                       std::string_view runId, CreateMode mode) {
    StrataTraceWriter w;
    if (!w.open(path, error, mode == CreateMode::Truncate ? CreateMode::Exclusive : mode))
        return false;
    namespace env = collector_env;
    w.metadata("no_trace_reason", run.noTraceReason);
    w.metadata(env::kMetaCommandLine, joinShellWords(run.argv));
    w.metadata(env::kMetaHost, run.host);
    w.metadata(env::kMetaPid, std::to_string(run.pid));
    if (!runId.empty()) w.metadata(env::kMetaRunId, runId);
    std::string program = run.argv.empty() ? std::string() : run.argv[0];
    if (const size_t slash = program.rfind('/'); slash != std::string::npos)
        program = program.substr(slash + 1);
    w.process(run.pid, program);
    w.run(run);
    if (!w.close()) {
        *error = w.lastError();
        return false;
    }
    return true;
}

} // namespace strata
