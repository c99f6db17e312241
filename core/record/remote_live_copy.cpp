#include "record/remote_live_copy.h"

#include "util/shell_words.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace strata {

namespace {

constexpr std::string_view kLiveCopy = "strata-cli record: live copy: ";

} // namespace

RemoteLiveCopy::~RemoteLiveCopy() {
    finish();
}

bool RemoteLiveCopy::start(const RemoteHost& host, const std::string& runFolder, long remotePid,
                           const std::string& localPath, std::string* error) {
    const int fd = ::open(localPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        *error = localPath + ": " + std::strerror(errno);
        return false;
    }
    // There: the run folder's first trace, once it exists, followed until the record ends.
    const std::string p = std::to_string(remotePid);
    const std::string script =
        runFolder + " && while [ -z \"$(ls \"$R\"/*.strata 2>/dev/null)\" ]; do kill -0 " + p +
        " 2>/dev/null || exit 0; sleep 0.1; done; F=$(ls \"$R\"/*.strata | head -n 1); exec tail "
        "-c +1 -s 0.1 --pid=" +
        p + " -f \"$F\"";
    const std::vector<std::string> argv = sshArgv(host, script);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr; // its own group: a terminal's Ctrl-C is strata-cli's to pass on
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const int rc = posix_spawnp(&ssh_, args[0], &fa, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fd);
    if (rc != 0) {
        ssh_ = -1;
        ::unlink(localPath.c_str());
        *error = argv[0] + ": " + std::strerror(rc);
        return false;
    }
    path_ = localPath;
    return true;
}

void RemoteLiveCopy::finish() {
    if (ssh_ > 0) {
        int status = 0;
        pid_t r = 0;
        for (int i = 0; i < 40 && (r = waitpid(ssh_, &status, WNOHANG)) == 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (r == 0) {
            kill(ssh_, SIGTERM);
            while (waitpid(ssh_, &status, 0) < 0 && errno == EINTR) {
            }
        }
        ssh_ = -1;
    }
    if (!path_.empty()) ::unlink(path_.c_str());
    path_.clear();
}

std::string liveCopyLine(const std::string& localPath) {
    return std::string(kLiveCopy) + localPath;
}

std::optional<std::string> liveCopyPath(std::string_view line) {
    if (line.substr(0, kLiveCopy.size()) != kLiveCopy) return std::nullopt;
    return std::string(line.substr(kLiveCopy.size()));
}

} // namespace strata
