#include "io/strata/strata_file_owner.h"

#include "contract/collector_env.h"
#include "io/strata/strata_chunks.h"
#include "io/strata/strata_format.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace strata {
namespace {

namespace fmt = format;

// A read-only mapping of a whole file, released with it.
struct Mapping {
    const uint8_t* data = nullptr;
    size_t size = 0;
    explicit Mapping(const std::string& path) {
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st {};
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            void* p = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
            if (p != MAP_FAILED) data = static_cast<const uint8_t*>(p), size = size_t(st.st_size);
        }
        close(fd);
    }
    ~Mapping() {
        if (data) munmap(const_cast<uint8_t*>(data), size);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
};

template <typename R> bool decode(const uint8_t* body, uint32_t bytes, R* out) {
    if (!R::Body::kShape.fits(body, bytes)) return false;
    *out = R::Body::read(body, bytes);
    return true;
}

} // namespace

StrataFileOwner readStrataFileOwner(const std::string& path, int maxChunks) {
    StrataFileOwner owner;
    const Mapping m(path);
    if (!m.data || m.size < fmt::kFileHeaderBytes ||
        std::memcmp(m.data, fmt::kMagic, sizeof fmt::kMagic) != 0 ||
        m.data[6] != fmt::kVersionMajor)
        return owner;
    owner.strata = true;
    const strata_reader::ChunkScan scan = strata_reader::scanChunks(m.data, m.size);
    std::unordered_map<uint32_t, std::string_view> strings;
    const size_t chunks = std::min(scan.chunks.size(), size_t(std::max(maxChunks, 0)));
    for (size_t i = 0; i < chunks && owner.runId.empty(); ++i) {
        const strata_reader::ChunkSpan& chunk = scan.chunks[i];
        if (!strata_reader::checkChunk(m.data, chunk, uint32_t(i)).empty()) break;
        ++owner.intactChunks;
        strata_reader::forEachRecord(
            m.data, chunk, [&](fmt::RecordType type, const uint8_t* body, uint32_t bytes) {
                fmt::StringRecord s;
                fmt::MetadataRecord meta;
                if (type == fmt::RecordType::String && decode(body, bytes, &s)) {
                    strings[s.id] = s.text;
                } else if (type == fmt::RecordType::Metadata && decode(body, bytes, &meta)) {
                    const auto key = strings.find(meta.key);
                    if (key == strings.end()) return std::string();
                    if (key->second == collector_env::kMetaRunId) {
                        owner.runId = std::string(meta.value);
                    } else if (key->second == collector_env::kMetaAncestry) {
                        owner.ancestry = std::string(meta.value);
                    } else if (key->second == collector_env::kMetaPid) {
                        int64_t pid = -1;
                        const char* end = meta.value.data() + meta.value.size();
                        if (std::from_chars(meta.value.data(), end, pid).ptr == end)
                            owner.pid = pid;
                    }
                }
                return std::string();
            });
    }
    return owner;
}

} // namespace strata
