#include "record/launcher.h"

#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "io/strata/strata_append.h"
#include "io/strata/strata_file_create.h"
#include "record/output_check.h"
#include "record/process_group.h"
#include "record/run_files.h"
#include "record/spawn_target.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <iterator>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace strata {
namespace {

bool isRegularFile(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string absolutePath(const std::string& p, const std::string& base = {}) {
    if (!p.empty() && p[0] == '/') return p;
    std::string dir = base;
    if (dir.empty() || dir[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) return p;
        dir = dir.empty() ? std::string(cwd) : std::string(cwd) + "/" + dir;
    }
    return dir + "/" + p;
}

std::string canonical(const std::string& p) {
    char buf[PATH_MAX];
    return realpath(p.c_str(), buf) ? std::string(buf) : absolutePath(p);
}

std::string executableDir() {
    const std::string p = executablePath();
    if (p.empty()) return {};
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
}

constexpr int kForwarded[3] = {SIGINT, SIGTERM, SIGHUP};

} // namespace

std::string executablePath() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

std::string findCollector(const RecordOptions& options, std::string* error) {
    const char* name = collector_env::kCollectorFileName;
    auto missing = [&](const std::string& where, const std::string& p) {
        *error = "collector not found: " + where + " names " + p + ", which is not a file";
        return std::string();
    };
    if (!options.collector.empty()) {
        if (!isRegularFile(options.collector)) return missing("--collector", options.collector);
        return canonical(options.collector);
    }
    if (const char* env = std::getenv(collector_env::kCollectorPath); env && *env) {
        if (!isRegularFile(env))
            return missing(std::string("$") + collector_env::kCollectorPath, env);
        return canonical(env);
    }
    const std::string dir = executableDir();
    const std::vector<std::string> candidates = {dir + "/" + name, dir + "/../lib/strata/" + name,
                                                 dir + "/../kernels/collector/" + name};
    for (const auto& c : candidates)
        if (isRegularFile(c)) return canonical(c);
    std::string looked;
    for (const auto& c : candidates) looked += "\n  " + c;
    *error = std::string("collector not built: ") + name + " was not found (set $" +
             collector_env::kCollectorPath + " or --collector); looked in:" + looked + "\n  ($" +
             collector_env::kCollectorPath + " is not set)";
    return {};
}

std::string resolveCommand(const std::string& name, const std::string& workingDirectory,
                           std::string* error) {
    auto check = [&](const std::string& p, bool* exists) {
        struct stat st {};
        *exists = stat(p.c_str(), &st) == 0;
        if (!*exists) return false;
        if (S_ISDIR(st.st_mode)) {
            *error = name + ": is a directory, not a program";
            return false;
        }
        if (access(p.c_str(), X_OK) != 0) {
            *error = name + ": not executable (" + p + ": " + std::strerror(errno) + ")";
            return false;
        }
        return true;
    };
    bool exists = false;
    if (name.find('/') != std::string::npos) {
        const std::string p = absolutePath(name, workingDirectory);
        if (check(p, &exists)) return p;
        if (!exists) *error = name + ": command not found (no such file: " + p + ")";
        return {};
    }
    const char* pathEnv = std::getenv("PATH");
    const std::string path = pathEnv ? pathEnv : "/usr/local/bin:/usr/bin:/bin";
    std::string firstProblem;
    size_t pos = 0;
    while (pos <= path.size()) {
        size_t colon = path.find(':', pos);
        if (colon == std::string::npos) colon = path.size();
        std::string dir = path.substr(pos, colon - pos);
        pos = colon + 1;
        if (dir.empty()) dir = ".";
        error->clear();
        const bool ok = check(dir + "/" + name, &exists);
        if (ok) return absolutePath(dir + "/" + name, workingDirectory);
        if (exists && firstProblem.empty()) firstProblem = *error;
    }
    *error =
        !firstProblem.empty() ? firstProblem : name + ": command not found in PATH (" + path + ")";
    return {};
}

namespace {

// `value` first in the path list `name` (PYTHONPATH, LD_PRELOAD): the user's own list (theirs
// from -e, else the launcher's) follows it.
void prependToList(std::vector<std::pair<std::string, std::string>>* set, const std::string& name,
                   const std::string& value, const char* const* base) {
    std::string rest;
    bool given = false;
    for (auto& [k, v] : *set)
        if (k == name) rest = v, given = true;
    const std::string prefix = name + "=";
    for (const char* const* e = base; !given && e && *e; ++e)
        if (std::string_view(*e).substr(0, prefix.size()) == prefix) rest = *e + prefix.size();
    std::erase_if(*set, [&](const auto& kv) { return kv.first == name; });
    set->emplace_back(name, rest.empty() ? value : value + ":" + rest);
}

} // namespace

std::vector<std::string> buildTargetEnvironment(const RecordOptions& options,
                                                const std::string& collectorPath,
                                                const std::string& outputTemplate,
                                                const char* const* base, const std::string& runId) {
    std::vector<std::pair<std::string, std::string>> set;
    if (options.inject) {
        set = toCollectorEnvironment(options, outputTemplate);
        set.emplace_back(collector_env::kCudaInjection, collectorPath);
        set.emplace_back(collector_env::kNvtxInjection, collectorPath);
        set.emplace_back(collector_env::kLauncherPid, std::to_string(getpid()));
        if (!runId.empty()) set.emplace_back(collector_env::kRunId, runId);
        const std::string injection = std::string(collector_env::kCudaInjection) + "=";
        for (const char* const* e = base; e && *e; ++e) {
            const std::string_view entry = *e;
            if (entry.substr(0, injection.size()) == injection &&
                entry.substr(injection.size()) != collectorPath && entry.size() > injection.size())
                set.emplace_back(collector_env::kReplacedInjection,
                                 std::string(entry.substr(injection.size())));
        }
    }
    for (const auto& kv : options.extraEnvironment) {
        // The user's value wins over the launcher's (-e STRATA_PYTHON=calls): one entry each.
        std::erase_if(set, [&](const auto& s) { return s.first == kv.first; });
        set.push_back(kv);
    }
    // The Python bootstrap (python/sitecustomize.py beside the collector) first on PYTHONPATH.
    if (options.inject && options.python != PythonRecording::Off)
        prependToList(&set, "PYTHONPATH",
                      collectorPath.substr(0, collectorPath.find_last_of('/') + 1) + "python",
                      base);
    // Native stacks of any program: the collector loaded at its start (it starts recording
    // from its constructor when STRATA_CPU_SAMPLE is set), not when CUDA or Python come up.
    if (options.inject && options.cpuSampleHz > 0)
        prependToList(&set, "LD_PRELOAD", collectorPath, base);
    // Variables a previous `record` may have left that these options do not set are removed
    // (when injecting), and those the user asked to remove.
    auto ours = [&](std::string_view entry) {
        const std::string_view key = entry.substr(0, entry.find('='));
        // STRATA_COLLECTOR and STRATA_ATTACH_DIR are the user's settings, not a run's: kept.
        if (options.inject && key.substr(0, 7) == "STRATA_" &&
            key != collector_env::kCollectorPath && key != collector_env::kAttachDir)
            return true;
        for (const auto& name : options.removedEnvironment)
            if (name == key) return true;
        for (const auto& kv : set)
            if (kv.first == key) return true;
        return false;
    };
    std::vector<std::string> env;
    for (const char* const* e = base; e && *e; ++e)
        if (!ours(*e)) env.emplace_back(*e);
    for (const auto& [k, v] : set) env.push_back(k + "=" + v);
    return env;
}

int exitCodeFromWaitStatus(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 255;
}

Launcher::~Launcher() {
    if (running()) {
        // Not finished by its owner (an early return, an exception): the run's processes are
        // not left behind. SIGTERM, then SIGKILL if the target is still there after 2 s.
        sendSignal(SIGTERM);
        for (int i = 0; i < 100 && !poll(nullptr); ++i) {
            const timespec step{0, 20'000'000};
            nanosleep(&step, nullptr);
        }
        if (running()) sendSignal(SIGKILL);
        wait();
    }
    if (outputFd_ >= 0) close(outputFd_);
    if (errorFd_ >= 0) close(errorFd_);
}

bool Launcher::start(const RecordOptions& options, std::string* error) {
    if (pid_ > 0) {
        *error = "the launcher already started a target";
        return false;
    }
    if (!validateRecordOptions(options, error)) return false;
    if (options.inject) {
        collector_ = findCollector(options, error);
        if (collector_.empty()) return false;
    }
    const std::string program = resolveCommand(options.command[0], options.workingDirectory, error);
    if (program.empty()) return false;

    // The target's {rank}: from the variables it is given, else from ours.
    rank_ = rankFromEnvironment([&](const char* name) -> const char* {
        for (const auto& [k, v] : options.extraEnvironment)
            if (k == name) return v.c_str();
        for (const auto& k : options.removedEnvironment)
            if (k == name) return nullptr;
        return std::getenv(name);
    });
    const std::time_t now = std::time(nullptr);
    const std::string tmpl =
        expandStartTime(options.output.empty() ? defaultOutputTemplate() : options.output, now);
    // Absolute, so a target that changes directory still writes where the user asked.
    outputTemplate_ = absolutePath(tmpl, options.workingDirectory);
    if (!checkOutputTemplate(outputTemplate_, rank_, options.force, error)) return false;

    runId_ = makeRunId();
    ownGroup_ = options.ownProcessGroup;
    const std::vector<std::string> env =
        buildTargetEnvironment(options, collector_, outputTemplate_, environ, runId_);
    startedAtSec_ = int64_t(now);
    timespec wall{}, steady{};
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &steady);
    if (!spawn(program, options, env, error)) return false;
    // What --force is to replace: a finished file there now, not one a live recording writes.
    earlier_ = {};
    if (options.force) {
        const std::string own = ownOutputPath();
        struct stat st {};
        if (lstat(own.c_str(), &st) == 0 && !strataFileBeingWritten(own))
            earlier_ = {true, st.st_dev, st.st_ino};
    }
    finished_ = false;
    startedSteadyNs_ = int64_t(steady.tv_sec) * 1'000'000'000 + steady.tv_nsec;
    run_ = RunInfo{};
    run_.argv = options.command;
    run_.executable = program;
    run_.cwd = canonical(options.workingDirectory.empty() ? "." : options.workingDirectory);
    run_.envAdded = options.extraEnvironment;
    run_.envRemoved = options.removedEnvironment;
    run_.pid = pid_;
    run_.startUnixNs = int64_t(wall.tv_sec) * 1'000'000'000 + wall.tv_nsec;
    run_.host = hostName();
    run_.strataVersion = STRATA_VERSION;
    run_.captured = options.inject;
    return true;
}

bool Launcher::spawn(const std::string& program, const RecordOptions& options,
                     const std::vector<std::string>& env, std::string* error) {
    SpawnRequest request;
    request.program = program;
    request.argv = options.command;
    request.env = env;
    request.workingDirectory = options.workingDirectory;
    request.ownProcessGroup = options.ownProcessGroup;
    request.defaultSignals.assign(std::begin(kForwarded), std::end(kForwarded));
    request.defaultSignals.push_back(SIGPIPE);
    int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
    int devNull = -1;
    auto closeAll = [&] {
        for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], devNull})
            if (fd >= 0) close(fd);
    };
    if (options.captureOutput) {
        if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0 ||
            (devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
            *error = std::string("cannot create the output pipes: ") + std::strerror(errno);
            closeAll();
            return false;
        }
        request.stdinFd = devNull;
        request.stdoutFd = outPipe[1];
        request.stderrFd = errPipe[1];
    }
    std::string why;
    const pid_t pid = spawnTarget(request, &why);
    for (int* fd : {&outPipe[1], &errPipe[1], &devNull})
        if (*fd >= 0) close(*fd), *fd = -1;
    if (pid < 0) {
        closeAll();
        *error = options.command[0] + ": " + why;
        return false;
    }
    pid_ = pid;
    outputFd_ = outPipe[0];
    errorFd_ = errPipe[0];
    return true;
}

void Launcher::exited(int status) {
    finished_ = true;
    timespec steady{};
    clock_gettime(CLOCK_MONOTONIC, &steady);
    run_.durationNs = int64_t(steady.tv_sec) * 1'000'000'000 + steady.tv_nsec - startedSteadyNs_;
    if (WIFEXITED(status))
        run_.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run_.signal = WTERMSIG(status);
    exitCode_ = exitCodeFromWaitStatus(status);
}

int Launcher::wait() {
    if (pid_ <= 0) return -1;
    if (finished_) return exitCode_;
    int status = 0;
    pid_t r;
    do {
        r = waitpid(pid_, &status, 0);
    } while (r < 0 && errno == EINTR);
    exited(r == pid_ ? status : 255 << 8);
    return exitCode_;
}

bool Launcher::poll(int* exitCode) {
    if (pid_ <= 0) return false;
    if (!finished_) {
        int status = 0;
        const pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == 0 || (r < 0 && errno == EINTR)) return false;
        exited(r == pid_ ? status : 255 << 8);
    }
    if (exitCode) *exitCode = exitCode_;
    return true;
}

void Launcher::sendSignal(int sig) {
    // Once the target has exited, its group may still hold its children (own group only: a
    // shared group is the launcher's own).
    if (pid_ <= 0 || (finished_ && !groupAlive())) return;
    run_.stopSignals.push_back(signalName(sig));
    if (ownGroup_)
        signalProcessGroup(pid_, sig);
    else
        kill(pid_, sig);
}

bool Launcher::groupAlive() const {
    if (pid_ <= 0) return false;
    if (!finished_) return true;
    return ownGroup_ && processGroupAlive(pid_);
}

RecordingResult Launcher::finish() {
    RecordingResult result;
    if (pid_ <= 0 || !finished_) {
        result.error = "the target has not exited";
        return result;
    }
    // Without the collector no process of the run was given the run id: no file can be its.
    RunFiles found;
    if (run_.captured) found = findRunFiles(query());
    result.notes = std::move(found.notes);
    result.files = std::move(found.files);
    for (const auto& f : result.files) {
        const AppendResult a = appendRunRecord(f, run_);
        if (!a.note.empty()) result.notes.push_back(a.note);
    }
    if (!result.files.empty()) return result;
    RunInfo run = run_;
    run.noTraceReason =
        run.captured
            ? "the program wrote no trace: it never initialised CUDA (no GPU here, or a program "
              "that does not use CUDA), or it ended before the collector was loaded"
            : "run without capture: the collector was not injected";
    const std::string path = ownOutputPath();
    struct stat st {};
    const bool taken = lstat(path.c_str(), &st) == 0;
    // --force replaces the earlier file the user meant (there when the run started), never one
    // another recording made meanwhile.
    const bool earlier =
        taken && earlier_.exists && st.st_dev == earlier_.dev && st.st_ino == earlier_.ino;
    if (taken && !earlier) {
        // Another process's file (the target's collector then found the name taken and wrote
        // nothing): named as such, never taken for the run's.
        result.error = path + " was not written by this run: a file of that name was made by "
                              "another process during the run, or was there before (another "
                              "recording with the same output path?); it is left as it is, and "
                              "this run's trace and run record were not written. Give each "
                              "recording its own -o (or put {pid} in it), or --force to replace "
                              "an earlier recording";
        return result;
    }
    const CreateMode mode = earlier ? CreateMode::ReplaceFinished : CreateMode::Exclusive;
    if (!writeRunOnlyTrace(path, run, &result.error, runId_, mode)) return result;
    result.files.push_back(path);
    result.runOnly = true;
    return result;
}

std::string Launcher::ownOutputPath() const {
    OutputPathValues values;
    values.pid = pid_;
    values.rank = safePathValue(rank_);
    values.host = safePathValue(hostName());
    return expandOutputPath(outputTemplate_, values);
}

RunFileQuery Launcher::query() const {
    RunFileQuery q;
    q.outputTemplate = outputTemplate_;
    q.startedAtSec = startedAtSec_;
    q.runId = runId_;
    q.targetPid = pid_;
    q.rank = rank_;
    return q;
}

std::vector<std::string> Launcher::traceFiles() const {
    if (pid_ <= 0 || !run_.captured) return {};
    return findRunFiles(query()).files;
}

} // namespace strata
