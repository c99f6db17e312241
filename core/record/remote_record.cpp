#include "record/remote_record.h"
#include "record/remote_live_copy.h"

#include "contract/output_path.h"
#include "util/output_file.h"
#include "util/shell_words.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string_view>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace strata {

namespace {

constexpr std::string_view kPidMark = "strata-remote-pid ";

// A child whose stderr (and stdout unless given a file) comes through pipes.
struct Child {
    pid_t pid = -1;
    int out = -1, err = -1;
};

Child spawnChild(const std::vector<std::string>& argv, int stdinFd, int stdoutFd,
                 std::string* error) {
    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
    if ((stdoutFd < 0 && pipe2(outPipe, O_CLOEXEC) != 0) || pipe2(errPipe, O_CLOEXEC) != 0) {
        *error = std::string("pipe: ") + std::strerror(errno);
        return {};
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (stdinFd >= 0)
        posix_spawn_file_actions_adddup2(&fa, stdinFd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, stdoutFd >= 0 ? stdoutFd : outPipe[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errPipe[1], 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A group of its own: a terminal's Ctrl-C reaches strata-cli alone, which passes it on as a
    // Stop; it must not end ssh (the link) first.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    Child c;
    const int rc = posix_spawnp(&c.pid, args[0], &fa, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (stdoutFd < 0) close(outPipe[1]);
    close(errPipe[1]);
    if (rc != 0) {
        *error = argv[0] + ": " + std::strerror(rc);
        if (stdoutFd < 0) close(outPipe[0]);
        close(errPipe[0]);
        return {};
    }
    c.out = stdoutFd < 0 ? outPipe[0] : -1;
    c.err = errPipe[0];
    return c;
}

// Reads the child's pipes until both close, handing each piece to onOut / onErr, calling tick()
// at least every 100 ms; then its exit code (255, ssh's own failure, when a signal ended it).
int drain(Child& c, const std::function<void(std::string_view)>& onOut,
          const std::function<void(std::string_view)>& onErr, const std::function<void()>& tick) {
    char buf[65536];
    while (c.out >= 0 || c.err >= 0) {
        pollfd fds[2] = {{c.out, POLLIN, 0}, {c.err, POLLIN, 0}};
        const int n = poll(fds, 2, 100);
        if (tick) tick();
        if (n < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            int& fd = i == 0 ? c.out : c.err;
            if (fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t got = read(fd, buf, sizeof buf);
            if (got > 0) {
                (i == 0 ? onOut : onErr)(std::string_view(buf, size_t(got)));
            } else if (got == 0 || errno != EINTR) {
                close(fd);
                fd = -1;
            }
        }
    }
    int status = 0;
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    // ssh ended by a signal: as lost as a connection that failed (255).
    return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

struct Ran {
    int code = -1;
    std::string out, err;
};

// One ssh command run to its end: stdin from `stdinFd` (else /dev/null), stdout into `stdoutFd`
// (else collected).
Ran runSsh(const RemoteHost& host, const std::string& command, int stdinFd = -1,
           int stdoutFd = -1) {
    Ran r;
    std::string error;
    Child c = spawnChild(sshArgv(host, command), stdinFd, stdoutFd, &error);
    if (c.pid < 0) {
        r.code = 255;
        r.err = error;
        return r;
    }
    r.code = drain(
        c, [&](std::string_view s) { r.out += s; }, [&](std::string_view s) { r.err += s; }, {});
    return r;
}

// The shell words that set D to Strata's folder there ("~/" as the remote $HOME).
std::string folderVariable(const std::string& dir) {
    if (dir == "~") return "D=\"$HOME\"";
    if (dir.rfind("~/", 0) == 0) return "D=\"$HOME\"/" + quoteShellWord(dir.substr(2));
    return "D=" + quoteShellWord(dir);
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

// Copies `local` to "$D/rel" there (written aside, then moved into place), mode 755.
bool copyTo(const RemoteRecordOptions& o, const std::string& local, const std::string& rel,
            std::string* error) {
    const int fd = open(local.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = local + ": " + std::strerror(errno);
        return false;
    }
    const std::string target = "\"$D\"/" + quoteShellWord(rel);
    const std::string dir = rel.substr(0, rel.rfind('/'));
    const Ran r = runSsh(o.host,
                         folderVariable(o.remoteDir) + " && mkdir -p \"$D\"/" +
                             quoteShellWord(dir) + " && cat > " + target + ".part && chmod 755 " +
                             target + ".part && mv -f " + target + ".part " + target,
                         fd);
    close(fd);
    if (r.code != 0) {
        *error = r.code == 255
                     ? describeSshFailure(o.host, r.err)
                     : "cannot copy " + local + " to " + o.host.text() + ": " + firstLine(r.err);
        return false;
    }
    return true;
}

// Step 1: a strata-cli of this version there, copied when missing or another version.
bool ensureRemoteCli(const RemoteRecordOptions& o,
                     const std::function<void(const std::string&)>& say, RemoteRecordResult* res) {
    const Ran probe = runSsh(o.host, folderVariable(o.remoteDir) +
                                         "; uname -m; \"$D\"/bin/strata-cli --version 2>/dev/null "
                                         "| head -n 1; true");
    if (probe.code != 0) {
        res->exitCode = 255;
        res->error = describeSshFailure(o.host, probe.err);
        return false;
    }
    const std::string arch = firstLine(probe.out);
    const size_t nl = probe.out.find('\n');
    const std::string version = nl == std::string::npos ? "" : firstLine(probe.out.substr(nl + 1));
    utsname u{};
    uname(&u);
    if (arch != u.machine) {
        res->error = o.host.text() + " is a " + arch + " machine; this strata-cli is built for " +
                     u.machine + ": install Strata there (then --remote-dir names its folder)";
        return false;
    }
    if (version == o.versionLine) return true;
    say(std::string("copying ") + o.versionLine + " to " + o.host.text() + ":" + o.remoteDir +
        (version.empty() ? " (none there)" : " (there: " + version + ")"));
    std::string error;
    if (!copyTo(o, o.localCli, "bin/strata-cli", &error) ||
        (!o.localCollector.empty() &&
         !copyTo(o, o.localCollector, "lib/strata/libstrata_collector.so", &error))) {
        res->error = error;
        res->exitCode = error.rfind("cannot reach", 0) == 0 ? 255 : 2;
        return false;
    }
    res->deployed = true;
    return true;
}

std::string runId() {
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    return std::string(stamp) + "-" + std::to_string(getpid());
}

// The file name the remote run writes: -o's own, else the default one (its {time} {pid} {rank}
// {host} expanded there, as in a local run).
std::string remoteFileName(const RemoteRecordOptions& o) {
    const std::string name = o.output.empty() ? defaultOutputTemplate() : o.output;
    return name.substr(name.rfind('/') + 1);
}

// The folder its files are copied into: -o's, else this one.
std::string localFolder(const RemoteRecordOptions& o) {
    const size_t slash = o.output.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : o.output.substr(0, slash);
}

// The remote script of a run. The remote strata-cli record runs detached (setsid, its output in
// out.log and err.log of the run's folder, its pid and then its exit code written there), so a
// dropped connection leaves it running to its end; this session streams the two logs (tail
// --pid) until it ends and exits with its code.
std::string runScript(const RemoteRecordOptions& o, const std::string& run) {
    std::string record =
        "\"$D\"/bin/strata-cli record -o \"$R\"/" + quoteShellWord(remoteFileName(o));
    for (const std::string& a : o.recordArgs) record += " " + quoteShellWord(a);
    record += " --";
    for (const std::string& a : o.command) record += " " + quoteShellWord(a);
    const std::string detached =
        record +
        " & echo $! > \"$R\"/pid.part && mv \"$R\"/pid.part \"$R\"/pid; wait $!; echo $? > "
        "\"$R\"/exit.part && mv \"$R\"/exit.part \"$R\"/exit";
    return folderVariable(o.remoteDir) + " && R=\"$D\"/runs/" + quoteShellWord(run) +
           " && export D R && mkdir -p \"$R\" && (setsid sh -c " + quoteShellWord(detached) +
           " </dev/null >\"$R\"/out.log 2>\"$R\"/err.log &) && while [ ! -s \"$R\"/pid ]; do "
           "sleep 0.05; done && P=$(cat \"$R\"/pid) && echo \"" +
           std::string(kPidMark) +
           "$P\" >&2 && { tail -s 0.1 -n +1 -f --pid=\"$P\" \"$R\"/out.log & T=$!; tail -s 0.1 -n "
           "+1 -f --pid=\"$P\" \"$R\"/err.log >&2; wait $T; }; while [ ! -s \"$R\"/exit ]; do "
           "sleep 0.05; done; exit \"$(cat \"$R\"/exit)\"";
}

// Step 2 and 3: the remote record, its output streamed, a stop passed on.
int runRemote(const RemoteRecordOptions& o, const std::string& run, const RemoteStop* stop,
              std::string* error) {
    const std::string cmd = runScript(o, run);
    Child c = spawnChild(sshArgv(o.host, cmd), -1, -1, error);
    if (c.pid < 0) return 255;
    long remotePid = -1;
    RemoteLiveCopy live; // with o.live, once the run's pid is known
    const auto startLiveCopy = [&] {
        const std::string path = localFolder(o) + "/." + run + ".live.strata";
        const std::string folder =
            folderVariable(o.remoteDir) + " && R=\"$D\"/runs/" + quoteShellWord(run);
        std::string why;
        const std::string line = live.start(o.host, folder, remotePid, path, &why)
                                     ? liveCopyLine(path)
                                     : "strata-cli record: no live copy: " + why;
        std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    };
    std::string errHead; // stderr before the mark (ssh's own failure, if it never came)
    int sent = 0;
    const auto tick = [&] {
        const int asked = stop ? stop->count.load() : 0;
        if (asked <= sent || remotePid <= 0 || sent >= 2) return;
        const int pass = sent == 0 ? stop->first.load() : SIGTERM;
        ++sent;
        runSsh(o.host, "kill -" + std::to_string(pass) + " " + std::to_string(remotePid));
    };
    const auto onErr = [&](std::string_view s) {
        if (remotePid > 0) {
            std::fwrite(s.data(), 1, s.size(), stderr);
            return;
        }
        errHead += s;
        const size_t mark = errHead.find(kPidMark);
        const size_t end = mark == std::string::npos ? mark : errHead.find('\n', mark);
        if (end == std::string::npos) return;
        remotePid = std::strtol(errHead.c_str() + mark + kPidMark.size(), nullptr, 10);
        std::fwrite(errHead.data(), 1, mark, stderr); // anything the login printed first
        std::fwrite(errHead.data() + end + 1, 1, errHead.size() - end - 1, stderr);
        errHead.clear();
        std::fprintf(stderr, "%s\n", remoteRunLine(run).c_str()); // for --fetch, if need be
        std::fflush(stderr);
        if (o.live) startLiveCopy();
    };
    const int code = drain(
        c,
        [](std::string_view s) {
            std::fwrite(s.data(), 1, s.size(), stdout);
            std::fflush(stdout);
        },
        onErr, tick);
    live.finish(); // the final copy follows
    const std::string later =
        "strata-cli record --remote " + o.host.text() + " --fetch " + run + " -o OUT";
    if (code == 255 && remotePid <= 0 && !errHead.empty())
        *error = describeSshFailure(o.host, errHead);
    else if (code == 255 && remotePid <= 0)
        *error = "the connection to " + o.host.text() +
                 " ended before the run was seen to start; if it did, it goes on there. Its "
                 "trace, when it has ended: " +
                 later;
    else if (code == 255)
        *error =
            "the connection to " + o.host.text() +
            " ended before the run did; it goes on there. Its trace, when it has ended: " + later;
    return code;
}

// May `path` be written here: nothing there, or (with force) a regular file.
bool mayWrite(const std::string& path, bool force, std::string* error) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) return true;
    if (!force)
        *error = path + ": exists (--force replaces it)";
    else if (!S_ISREG(st.st_mode))
        *error = path + ": not a regular file; not replaced";
    return error->empty();
}

// Step 4: the run's files copied here.
bool fetch(const RemoteRecordOptions& o, const std::string& run, RemoteRecordResult* res) {
    const std::string r = folderVariable(o.remoteDir) + " && R=\"$D\"/runs/" + quoteShellWord(run);
    const Ran list = runSsh(o.host, r + " && ls -1 \"$R\"");
    if (list.code != 0) {
        res->error = list.code == 255 ? describeSshFailure(o.host, list.err)
                                      : "cannot list the run's files there: " + firstLine(list.err);
        return false;
    }
    std::vector<std::string> names;
    for (size_t p = 0; p < list.out.size();) {
        const size_t nl = std::min(list.out.find('\n', p), list.out.size());
        const std::string name = list.out.substr(p, nl - p);
        if (name.size() > 7 && name.compare(name.size() - 7, 7, ".strata") == 0)
            names.push_back(name);
        p = nl + 1;
    }
    const std::string folder = localFolder(o);
    for (const std::string& name : names) { // each under the name the run gave it there
        const std::string local = (folder == "." ? "" : folder + "/") + name;
        // Written aside and renamed into place whole (util/output_file.h).
        std::unique_ptr<OutputFile> out;
        if (mayWrite(local, o.force, &res->error)) out = OutputFile::open(local, &res->error);
        if (!out) {
            res->error += " (the run's files stay there: " + o.remoteDir + "/runs/" + run + ")";
            return false;
        }
        const Ran cat =
            runSsh(o.host, r + " && cat \"$R\"/" + quoteShellWord(name), -1, fileno(out->stream()));
        if (cat.code != 0) {
            res->error =
                "cannot copy " + name + " back: " +
                (cat.code == 255 ? describeSshFailure(o.host, cat.err) : firstLine(cat.err));
            return false; // the temporary goes with `out`
        }
        if (!out->commit(&res->error)) return false;
        res->files.push_back(local);
    }
    if (!o.keepRemote) runSsh(o.host, r + " && rm -rf \"$R\"");
    return true;
}

// An earlier run's files, once it has ended there: its exit code is the result's.
bool fetchEnded(const RemoteRecordOptions& o, RemoteRecordResult* res) {
    res->remoteRun = o.remoteDir + "/runs/" + o.fetchRun;
    const Ran ended = runSsh(
        o.host, folderVariable(o.remoteDir) + " && R=\"$D\"/runs/" + quoteShellWord(o.fetchRun) +
                    " && test -d \"$R\" && { cat \"$R\"/exit 2>/dev/null; true; }");
    if (ended.code != 0) {
        res->exitCode = ended.code == 255 ? 255 : 2;
        res->error = ended.code == 255 ? describeSshFailure(o.host, ended.err)
                                       : "no run " + o.fetchRun + " in " + o.remoteDir +
                                             "/runs on " + o.host.text();
        return false;
    }
    if (ended.out.empty()) {
        res->exitCode = 2;
        res->error = "the run " + o.fetchRun + " is still going on " + o.host.text() +
                     ": fetch it when it has ended";
        return false;
    }
    res->exitCode = std::atoi(ended.out.c_str());
    if (!fetch(o, o.fetchRun, res) && res->exitCode == 0) res->exitCode = 1;
    return res->error.empty();
}

// The local name, checked before anything runs there; a template's names ({pid} {rank} {host}
// are expanded there) are checked as they come back.
bool localOutputFree(const RemoteRecordOptions& o, std::string* error) {
    return o.output.empty() || hasPlaceholders(o.output) || mayWrite(o.output, o.force, error);
}

constexpr std::string_view kCopiedFrom = "strata-cli record: copied from ";
constexpr std::string_view kRunThere = "strata-cli record: the run there is ";

} // namespace

std::string copiedBackLine(const RemoteHost& host, const std::string& localPath) {
    return std::string(kCopiedFrom) + host.text() + ": " + localPath;
}

std::string remoteRunLine(const std::string& run) {
    return std::string(kRunThere) + run;
}

std::optional<std::string> remoteRunOf(std::string_view line) {
    if (line.substr(0, kRunThere.size()) != kRunThere) return std::nullopt;
    return std::string(line.substr(kRunThere.size()));
}

std::optional<std::string> copiedBackPath(std::string_view line) {
    if (line.substr(0, kCopiedFrom.size()) != kCopiedFrom) return std::nullopt;
    const size_t sep = line.find(": ", kCopiedFrom.size()); // a host holds no ": "
    if (sep == std::string_view::npos) return std::nullopt;
    return std::string(line.substr(sep + 2));
}

RemoteRecordResult recordRemotely(const RemoteRecordOptions& o,
                                  const std::function<void(const std::string&)>& say,
                                  const RemoteStop* stop) {
    RemoteRecordResult res;
    if (!localOutputFree(o, &res.error)) return res;
    if (!o.fetchRun.empty()) {
        fetchEnded(o, &res);
        return res;
    }
    if (!ensureRemoteCli(o, say, &res)) return res;
    const std::string run = runId();
    res.remoteRun = o.remoteDir + "/runs/" + run;
    std::string error;
    res.exitCode = runRemote(o, run, stop, &error);
    if (!error.empty()) {
        res.error = error;
        return res;
    }
    if (!fetch(o, run, &res) && res.exitCode == 0) res.exitCode = 1;
    return res;
}

} // namespace strata

namespace strata {

RemoteCommandRun runRemoteCommand(const RemoteHost& host, const std::string& command) {
    const Ran r = runSsh(host, command);
    return {r.code, r.out, r.err};
}

bool ensureRemoteStrataCli(const RemoteRecordOptions& o,
                           const std::function<void(const std::string&)>& say,
                           RemoteRecordResult* res) {
    return ensureRemoteCli(o, say, res);
}

std::string remoteStrataCli(const std::string& remoteDir) {
    return folderVariable(remoteDir) + " && \"$D\"/bin/strata-cli";
}

bool copyRemoteFile(const RemoteHost& host, const std::string& remotePath,
                    const std::string& localPath, bool force, std::string* error) {
    std::unique_ptr<OutputFile> out;
    if (mayWrite(localPath, force, error)) out = OutputFile::open(localPath, error);
    if (!out) return false;
    const Ran cat = runSsh(host, "cat " + quoteShellWord(remotePath), -1, fileno(out->stream()));
    if (cat.code != 0) {
        *error = "cannot copy " + remotePath + " from " + host.text() + ": " +
                 (cat.code == 255 ? describeSshFailure(host, cat.err) : firstLine(cat.err));
        return false;
    }
    return out->commit(error);
}

} // namespace strata
