#include "io/formats/nsys/nsys_report.h"

#include "io/cache/trace_cache.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace strata {

namespace {

namespace fs = std::filesystem;

// The first executable `nsys` on PATH, or "".
std::string findNsys() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (size_t b = 0; b <= dirs.size();) {
        const size_t e = std::min(dirs.find(':', b), dirs.size());
        const std::string candidate = (e > b ? dirs.substr(b, e - b) : std::string(".")) + "/nsys";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        b = e + 1;
    }
    return {};
}

std::string exportCommand(const std::string& report) {
    return "nsys export --type sqlite --output report.sqlite " + report;
}

} // namespace

std::string exportNsysReport(const std::string& report, std::string* error) {
    const std::string nsys = findNsys();
    if (nsys.empty()) {
        *error = "an Nsight Systems report: Strata reads its SQLite export, and no `nsys` is on "
                 "PATH to make it; run `" +
                 exportCommand(report) + "` and open report.sqlite";
        return {};
    }
    struct stat st {};
    if (::stat(report.c_str(), &st) != 0) {
        *error = "cannot be read";
        return {};
    }
    const TraceCache cache(TraceCacheSettings::fromEnvironment());
    const std::string problem = cache.prepareDirectory();
    if (!problem.empty()) {
        *error = "an Nsight Systems report: its SQLite export has nowhere to go (" + problem +
                 "); run `" + exportCommand(report) + "` and open report.sqlite";
        return {};
    }
    std::error_code ec;
    const std::string key = fs::absolute(report, ec).string() + ":" + std::to_string(st.st_size) +
                            ":" + std::to_string(st.st_mtime);
    const std::string out =
        cache.directory() + "/nsys-" + std::to_string(std::hash<std::string>()(key)) + ".sqlite";
    if (fs::exists(out, ec)) return out; // made before from this very report
    const std::string partial = out + ".partial.sqlite";
    std::vector<std::string> args = {nsys,   "export",   "--type", "sqlite", "--force-overwrite",
                                     "true", "--output", partial,  report};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, nsys.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (rc != 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || !fs::exists(partial, ec)) {
        fs::remove(partial, ec);
        *error = "an Nsight Systems report: `" + nsys +
                 " export` did not make its SQLite export (" +
                 (rc != 0 ? "could not run" : "exit " + std::to_string(WEXITSTATUS(status))) +
                 "); run `" + exportCommand(report) + "` to see why";
        return {};
    }
    fs::rename(partial, out, ec);
    if (ec) {
        *error = "an Nsight Systems report: its export could not be kept in " + cache.directory();
        return {};
    }
    return out;
}

} // namespace strata
