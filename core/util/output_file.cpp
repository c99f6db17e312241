#include "util/output_file.h"
#include "util/input_file.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <pthread.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

// The temporary files being written, for removeOutputTemporaries() (a signal handler): fixed
// slots, no allocation, published with atomics (state 2 = the path is complete).
struct TemporarySlot {
    std::atomic<int> state{0}; // 0 free, 1 being filled, 2 holds a path
    char path[PATH_MAX];
};
TemporarySlot g_temporaries[16];

// The slot now holding `path`, or -1 (all taken or too long: then no signal clean-up for it).
int registerTemporary(const std::string& path) {
    if (path.size() >= sizeof g_temporaries[0].path) return -1;
    for (int i = 0; i < int(std::size(g_temporaries)); ++i) {
        int expected = 0;
        if (!g_temporaries[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
        g_temporaries[i].state.store(2);
        return i;
    }
    return -1;
}

void releaseTemporary(int slot) {
    if (slot >= 0) g_temporaries[slot].state.store(0);
}

// Blocks the signals whose handler removes the temporaries while one is created and registered
// (a signal in between would leave it behind).
class TerminationSignalsBlocked {
public:
    TerminationSignalsBlocked() {
        sigset_t set;
        sigemptyset(&set);
        for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~TerminationSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

std::string folderOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string why(int error) {
    return std::strerror(error);
}

// Six random characters of [A-Za-z0-9].
std::string randomSuffix() {
    static const char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char bytes[6];
    if (getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes))
        for (unsigned char& b : bytes) b = static_cast<unsigned char>(std::rand());
    std::string s;
    for (unsigned char b : bytes) s += kAlphabet[b % (sizeof kAlphabet - 1)];
    return s;
}

// Where a symbolic link the user named leads, when it may be followed; empty and *error if not.
std::string followLink(const std::string& path, const struct stat& link, std::string* error) {
    struct stat folder {};
    if (::stat(folderOf(path).c_str(), &folder) == 0 && (folder.st_mode & S_ISVTX) &&
        (folder.st_mode & S_IWOTH) && link.st_uid != ::geteuid() && link.st_uid != folder.st_uid) {
        *error = path + ": is a symbolic link owned by another user in a shared folder: not "
                        "followed (name the file it leads to)";
        return {};
    }
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved)) {
        *error = path + ": is a symbolic link that leads nowhere (" + why(errno) +
                 "): not followed (name the file it should lead to)";
        return {};
    }
    return resolved;
}

} // namespace

std::unique_ptr<OutputFile> OutputFile::open(const std::string& path, std::string* error,
                                             const OutputOptions& options) {
    if (path.empty()) {
        *error = "no output file named";
        return nullptr;
    }
    std::unique_ptr<OutputFile> out(new OutputFile);
    out->path_ = path;
    out->target_ = path;
    struct stat st {};
    bool exists = ::lstat(path.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) {
        *error = path + ": cannot write there: " + why(errno);
        return nullptr;
    }
    if (exists && S_ISLNK(st.st_mode)) {
        if (!options.named) {
            *error = path + ": is a symbolic link: not written through (remove it, or name "
                            "another output)";
            return nullptr;
        }
        out->target_ = followLink(path, st, error);
        if (out->target_.empty()) return nullptr;
        exists = ::stat(out->target_.c_str(), &st) == 0;
        if (!exists) {
            *error = path + ": cannot write where its link leads: " + why(errno);
            return nullptr;
        }
    }
    if (exists && !S_ISREG(st.st_mode)) {
        const bool fifo = S_ISFIFO(st.st_mode);
        if (!options.named && !S_ISDIR(st.st_mode)) {
            *error = path + ": is " + fileKindName(st.st_mode) +
                     ", not a file Strata wrote: not "
                     "replaced";
            return nullptr;
        }
        if (!fifo && !S_ISCHR(st.st_mode)) {
            const char* what = S_ISDIR(st.st_mode)    ? "a folder"
                               : S_ISBLK(st.st_mode)  ? "a block device (a disk)"
                               : S_ISSOCK(st.st_mode) ? "a socket"
                                                      : "not a regular file";
            *error = path + ": is " + what + ": not written";
            return nullptr;
        }
        // Written into as it is: no creation, no truncation; non-blocking so that a FIFO with
        // no reader fails at once (ENXIO) instead of waiting for one.
        const int fd = ::open(out->target_.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            *error = fifo && errno == ENXIO
                         ? path + ": is a FIFO (named pipe) that no program reads: not written"
                         : path + ": cannot open: " + why(errno);
            return nullptr;
        }
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        out->f_ = ::fdopen(fd, "wb");
        if (!out->f_) {
            *error = path + ": cannot open: " + why(errno);
            ::close(fd);
            return nullptr;
        }
        return out;
    }
    // A regular file or nothing: a fresh temporary beside it.
    const std::string folder = folderOf(out->target_);
    std::string base = out->target_.substr(out->target_.rfind('/') + 1);
    long nameMax = ::pathconf(folder.c_str(), _PC_NAME_MAX);
    if (nameMax <= 0) nameMax = NAME_MAX;
    if (base.size() + 15 > size_t(nameMax)) base = ".strata"; // still a name of its own
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        out->temporary_ = (folder == "/" ? "" : folder) + "/" + base + ".partial-" + randomSuffix();
        const TerminationSignalsBlocked blocked;
        fd = ::open(out->temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    options.mode);
        if (fd >= 0)
            out->slot_ = registerTemporary(out->temporary_);
        else if (errno != EEXIST)
            break;
    }
    if (fd < 0) {
        *error = path + ": cannot create the output file: " + why(errno);
        out->temporary_.clear();
        return nullptr;
    }
    // Replacing a file keeps its permissions (a private file stays private).
    if (exists) ::fchmod(fd, st.st_mode & 0777);
    out->f_ = ::fdopen(fd, "wb");
    if (!out->f_) {
        *error = path + ": cannot open: " + why(errno);
        ::close(fd);
        out->abort();
        return nullptr;
    }
    std::setvbuf(out->f_, nullptr, _IOFBF, 1 << 20);
    return out;
}

OutputFile::~OutputFile() {
    abort();
}

bool OutputFile::commit(std::string* error) {
    if (!f_) {
        *error = path_ + ": already closed";
        return false;
    }
    bool ok = std::fflush(f_) == 0;
    int failure = errno;
    if (ok && !temporary_.empty() && ::fsync(fileno(f_)) != 0 && errno != EINVAL) {
        ok = false;
        failure = errno;
    }
    if (std::fclose(f_) != 0 && ok) {
        ok = false;
        failure = errno;
    }
    f_ = nullptr;
    if (!ok) {
        *error = path_ + ": cannot write: " + why(failure);
        abort();
        return false;
    }
    if (temporary_.empty()) return true;
    struct stat st {};
    if (::lstat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        *error = path_ + ": is no longer a regular file (something else was put there while it "
                         "was written): not replaced";
        abort();
        return false;
    }
    if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
        *error = path_ + ": cannot rename the finished file into place: " + why(errno);
        abort();
        return false;
    }
    releaseTemporary(slot_);
    slot_ = -1;
    temporary_.clear();
    return true;
}

void OutputFile::abort() {
    if (f_) std::fclose(f_);
    f_ = nullptr;
    if (!temporary_.empty()) {
        ::unlink(temporary_.c_str());
        temporary_.clear();
    }
    releaseTemporary(slot_);
    slot_ = -1;
}

bool writeWholeFile(const std::string& path, std::string_view bytes, std::string* error,
                    const OutputOptions& options) {
    const std::unique_ptr<OutputFile> out = OutputFile::open(path, error, options);
    if (!out) return false;
    if (std::fwrite(bytes.data(), 1, bytes.size(), out->stream()) != bytes.size()) {
        *error = path + ": cannot write: " + why(errno);
        return false; // the destructor removes the temporary
    }
    return out->commit(error);
}

void removeOutputTemporaries() noexcept {
    for (TemporarySlot& t : g_temporaries)
        if (t.state.load() == 2) ::unlink(t.path);
}

} // namespace strata
