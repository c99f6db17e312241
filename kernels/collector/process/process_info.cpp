#include "process/process_info.h"

#include <cstdio>
#include <sys/syscall.h>
#include <unistd.h>

namespace strata {

static std::string readSmallFile(const char* path) {
    std::string out;
    std::FILE* f = std::fopen(path, "rb");
    if (!f) return out;
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (1u << 20))
        out.append(buf, n);
    std::fclose(f);
    return out;
}

static std::string chomp(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\0')) s.pop_back();
    return s;
}

std::string processName() {
    return chomp(readSmallFile("/proc/self/comm"));
}

std::string threadName(int64_t tid) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%lld/comm", static_cast<long long>(tid));
    return chomp(readSmallFile(path));
}

std::string commandLine() {
    std::string s = chomp(readSmallFile("/proc/self/cmdline"));
    for (char& c : s)
        if (c == '\0') c = ' ';
    return s;
}

int64_t currentThreadId() {
    return static_cast<int64_t>(syscall(SYS_gettid));
}

} // namespace strata
