#include "record/process_group.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace strata {
namespace {

// From /proc/<pid>/stat ("pid (comm) S ppid pgrp ..."; comm may hold spaces and parentheses, so
// the fields are read after the last ')'): the state letter and the process group.
bool readStat(const char* pid, char* state, long* pgrp) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char buf[512];
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return false;
    buf[n] = 0;
    const char* paren = std::strrchr(buf, ')');
    long ppid = 0;
    return paren && std::sscanf(paren + 1, " %c %ld %ld", state, &ppid, pgrp) == 3;
}

bool isNumber(const char* s) {
    if (!*s) return false;
    for (; *s; ++s)
        if (*s < '0' || *s > '9') return false;
    return true;
}

} // namespace

bool signalProcessGroup(pid_t pgid, int sig) {
    return pgid > 1 && kill(-pgid, sig) == 0;
}

bool processGroupAlive(pid_t pgid) {
    if (pgid <= 1) return false;
    if (kill(-pgid, 0) != 0 && errno == ESRCH) return false;
    DIR* proc = opendir("/proc");
    if (!proc) return true; // no /proc: a member exists, zombie or not
    bool alive = false;
    bool sawSelf = false;
    while (const dirent* e = readdir(proc)) {
        if (!isNumber(e->d_name)) continue;
        char state = 0;
        long pgrp = 0;
        if (!readStat(e->d_name, &state, &pgrp)) continue;
        sawSelf = sawSelf || pid_t(std::atol(e->d_name)) == getpid();
        if (pgrp == long(pgid) && state != 'Z' && state != 'X') {
            alive = true;
            break;
        }
    }
    closedir(proc);
    return alive || !sawSelf; // /proc that does not list us is not this system's: trust kill
}

std::string signalName(int sig) {
    const char* name = sigabbrev_np(sig);
    return name ? std::string("SIG") + name : std::to_string(sig);
}

bool isForegroundJob() {
    const int tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (tty < 0) return false;
    const bool foreground = tcgetpgrp(tty) == getpgrp();
    close(tty);
    return foreground;
}

} // namespace strata
