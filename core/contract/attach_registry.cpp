#include "contract/attach_registry.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata::attach {

namespace {

constexpr std::string_view kRunSuffix = ".run";

// One "key=value" line; newlines in values become spaces (a value is one line).
void line(std::string& out, std::string_view key, std::string_view value) {
    out.append(key).push_back('=');
    for (char c : value) out.push_back(c == '\n' || c == '\r' ? ' ' : c);
    out.push_back('\n');
}

// Each "key=value" line of `text` handed to `each`.
template <class F> void eachLine(std::string_view text, F each) {
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view l = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        const size_t eq = l.find('=');
        if (eq != std::string_view::npos) each(l.substr(0, eq), l.substr(eq + 1));
    }
}

bool toInt(std::string_view s, int64_t* out) {
    if (s.empty() || s.size() > 20) return false;
    const std::string t(s);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

} // namespace

std::string_view stateName(RunState s) {
    switch (s) {
    case RunState::Waiting:
        return "waiting";
    case RunState::Capturing:
        return "capturing";
    case RunState::Stopped:
        return "stopped";
    }
    return "waiting";
}

std::string registryDir(const char* overrideDir) {
    if (overrideDir && *overrideDir) return overrideDir;
    return "/tmp/strata-attach-" + std::to_string(getuid());
}

bool checkRegistryDir(const std::string& dir, bool create, std::string* error) {
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0) {
        if (errno != ENOENT || !create) {
            *error = dir + ": " + std::strerror(errno);
            return false;
        }
        if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
            *error = "cannot create " + dir + ": " + std::strerror(errno);
            return false;
        }
        if (lstat(dir.c_str(), &st) != 0) {
            *error = dir + ": " + std::strerror(errno);
            return false;
        }
    }
    if (!S_ISDIR(st.st_mode)) {
        *error = dir + ": not a directory (a symbolic link or a file is never used)";
        return false;
    }
    if (st.st_uid != getuid()) {
        *error = dir + ": owned by another user (uid " + std::to_string(st.st_uid) + "); not used";
        return false;
    }
    if (st.st_mode & 077) {
        *error = dir + ": open to other users (mode " + std::to_string((st.st_mode >> 6) & 7) +
                 std::to_string((st.st_mode >> 3) & 7) + std::to_string(st.st_mode & 7) +
                 "); it must be 700";
        return false;
    }
    return true;
}

std::string runFilePath(const std::string& dir, int64_t pid) {
    return dir + "/" + std::to_string(pid) + std::string(kRunSuffix);
}

std::string controlFilePath(const std::string& dir, int64_t pid) {
    return dir + "/" + std::to_string(pid) + ".control";
}

std::string formatRun(const WaitingRun& r) {
    std::string out;
    line(out, "pid", std::to_string(r.pid));
    line(out, "start_ticks", std::to_string(r.startTicks));
    line(out, "run_id", r.runId);
    line(out, "state", stateName(r.state));
    line(out, "flush_ms", std::to_string(r.flushMs));
    line(out, "served", std::to_string(r.served));
    line(out, "served_ns", std::to_string(r.servedNs));
    line(out, "windows", r.windows);
    line(out, "note", r.note);
    line(out, "trace", r.trace);
    line(out, "command", r.command);
    return out;
}

bool parseRun(std::string_view text, WaitingRun* out) {
    WaitingRun r;
    bool pid = false, state = false;
    eachLine(text, [&](std::string_view k, std::string_view v) {
        int64_t n = 0;
        if (k == "pid")
            pid = toInt(v, &r.pid) && r.pid > 0;
        else if (k == "start_ticks" && toInt(v, &n))
            r.startTicks = uint64_t(n);
        else if (k == "run_id")
            r.runId = v;
        else if (k == "state") {
            state = true;
            if (v == "capturing")
                r.state = RunState::Capturing;
            else if (v == "stopped")
                r.state = RunState::Stopped;
            else if (v == "waiting")
                r.state = RunState::Waiting;
            else
                state = false;
        } else if (k == "flush_ms" && toInt(v, &n))
            r.flushMs = int32_t(n);
        else if (k == "served")
            toInt(v, &r.served);
        else if (k == "served_ns")
            toInt(v, &r.servedNs);
        else if (k == "windows")
            r.windows = v;
        else if (k == "note")
            r.note = v;
        else if (k == "trace")
            r.trace = v;
        else if (k == "command")
            r.command = v;
    });
    if (!pid || !state) return false;
    *out = std::move(r);
    return true;
}

std::string formatControl(const ControlRequest& c) {
    std::string out;
    line(out, "seq", std::to_string(c.seq));
    line(out, "request", c.request == Request::Start ? "start" : "stop");
    return out;
}

bool parseControl(std::string_view text, ControlRequest* out) {
    ControlRequest c;
    bool seq = false, request = false;
    eachLine(text, [&](std::string_view k, std::string_view v) {
        if (k == "seq") seq = toInt(v, &c.seq) && c.seq > 0;
        if (k == "request") {
            request = v == "start" || v == "stop";
            c.request = v == "stop" ? Request::Stop : Request::Start;
        }
    });
    if (!seq || !request) return false;
    *out = c;
    return true;
}

bool writeFileAtomically(const std::string& path, std::string_view text, std::string* error) {
    const std::string tmp = path + ".part" + std::to_string(getpid());
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        *error = tmp + ": " + std::strerror(errno);
        return false;
    }
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *error = tmp + ": " + std::strerror(errno);
            close(fd);
            unlink(tmp.c_str());
            return false;
        }
        done += size_t(n);
    }
    close(fd);
    if (rename(tmp.c_str(), path.c_str()) != 0) {
        *error = path + ": " + std::strerror(errno);
        unlink(tmp.c_str());
        return false;
    }
    return true;
}

bool readSmallFile(const std::string& path, std::string* out) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    out->clear();
    char buf[4096];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || out->size() > (1u << 20)) break;
        out->append(buf, size_t(n));
    }
    close(fd);
    return true;
}

uint64_t processStartTicks(int64_t pid) {
    std::string stat;
    if (pid <= 0 || !readSmallFile("/proc/" + std::to_string(pid) + "/stat", &stat)) return 0;
    // pid (comm) state ppid ...: fields after the last ')' start with field 3.
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    size_t p = close + 2;
    if (p < stat.size() && (stat[p] == 'Z' || stat[p] == 'X')) return 0; // ended, not reaped
    for (int field = 3; field < 22 && p < stat.size(); ++field) {
        p = stat.find(' ', p);
        if (p == std::string::npos) return 0;
        ++p;
    }
    return std::strtoull(stat.c_str() + p, nullptr, 10);
}

bool runAlive(const WaitingRun& run) {
    const uint64_t ticks = processStartTicks(run.pid);
    return ticks != 0 && (run.startTicks == 0 || ticks == run.startTicks);
}

std::vector<WaitingRun> listRuns(const std::string& dir, std::vector<int64_t>* removed) {
    std::vector<WaitingRun> runs;
    DIR* d = opendir(dir.c_str());
    if (!d) return runs;
    while (const dirent* e = readdir(d)) {
        const std::string_view name = e->d_name;
        if (name.size() <= kRunSuffix.size() ||
            name.substr(name.size() - kRunSuffix.size()) != kRunSuffix)
            continue;
        const std::string path = dir + "/" + std::string(name);
        std::string text;
        WaitingRun r;
        if (!readSmallFile(path, &text) || !parseRun(text, &r)) continue;
        if (!runAlive(r)) {
            unlink(path.c_str());
            unlink(controlFilePath(dir, r.pid).c_str());
            if (removed) removed->push_back(r.pid);
            continue;
        }
        runs.push_back(std::move(r));
    }
    closedir(d);
    std::sort(runs.begin(), runs.end(),
              [](const WaitingRun& a, const WaitingRun& b) { return a.pid < b.pid; });
    return runs;
}

} // namespace strata::attach
