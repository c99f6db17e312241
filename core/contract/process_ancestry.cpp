#include "contract/process_ancestry.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace strata {
namespace {

// The parent of `pid` from /proc/<pid>/stat ("pid (comm) S ppid ..."; comm may hold spaces and
// parentheses, so the fields are read after the last ')'); -1 if it cannot be read.
int64_t parentOf(int64_t pid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%lld/stat", static_cast<long long>(pid));
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[1024];
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    const char* paren = std::strrchr(buf, ')');
    char state = 0;
    long long ppid = -1;
    if (!paren || std::sscanf(paren + 1, " %c %lld", &state, &ppid) != 2) return -1;
    return ppid;
}

} // namespace

std::string processAncestry(int64_t pid) {
    if (pid <= 0) pid = getpid();
    std::string out;
    for (int depth = 0; depth < 256 && pid > 0; ++depth) {
        const int64_t parent = parentOf(pid);
        if (parent < 0) break; // gone meanwhile, or no /proc: the chain ends here
        out += (out.empty() ? "" : " ") + std::to_string(pid);
        pid = parent;
    }
    return out;
}

bool ancestryContains(std::string_view ancestry, int64_t pid) {
    const char* p = ancestry.data();
    const char* end = p + ancestry.size();
    while (p < end) {
        while (p < end && *p == ' ') ++p;
        int64_t value = 0;
        const auto [next, ec] = std::from_chars(p, end, value);
        if (ec != std::errc() || next == p) return false; // not a list of pids
        if (value == pid) return true;
        p = next;
    }
    return false;
}

} // namespace strata
