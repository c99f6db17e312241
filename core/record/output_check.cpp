#include "record/output_check.h"

#include "contract/output_path.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

// The largest pid this system can give (pid_max - 1), so {pid} is measured at its widest.
int64_t widestPid() {
    long long pidMax = 0;
    if (std::FILE* f = std::fopen("/proc/sys/kernel/pid_max", "re")) {
        if (std::fscanf(f, "%lld", &pidMax) != 1) pidMax = 0;
        std::fclose(f);
    }
    return pidMax > 1 ? int64_t(pidMax - 1) : int64_t(4194303); // Linux's most (2^22 - 1)
}

// A long name shown by its ends: "abcabc...abc.strata".
std::string shortened(const std::string& name) {
    if (name.size() <= 80) return name;
    return name.substr(0, 48) + "..." + name.substr(name.size() - 24);
}

bool checkLength(const std::string& path, const std::string& dir, std::string* error) {
    const std::string name = path.substr(path.rfind('/') + 1);
    long nameMax = pathconf(dir.c_str(), _PC_NAME_MAX);
    if (nameMax <= 0) nameMax = NAME_MAX;
    if (name.size() > size_t(nameMax)) {
        *error = "output file name too long: " + shortened(name) + " is " +
                 std::to_string(name.size()) + " bytes (with {pid} at its widest), more than the " +
                 std::to_string(nameMax) + " the file system allows in " + dir +
                 "; give a shorter output path";
        return false;
    }
    if (path.size() >= PATH_MAX) {
        *error = "output path too long: " + shortened(path) + " is " + std::to_string(path.size()) +
                 " bytes, more than the " + std::to_string(PATH_MAX - 1) +
                 " a path may have; give a shorter output path";
        return false;
    }
    return true;
}

} // namespace

bool checkFolderWritable(const std::string& dir, std::string* error) {
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
        *error = "output folder " + shortened(dir) + " is not writable: " + std::strerror(errno);
        return false;
    }
    std::string probe =
        dir + (dir.empty() || dir.back() != '/' ? "/" : "") + ".strata-write-check-XXXXXX";
    const int fd = mkstemp(probe.data());
    if (fd < 0) {
        *error = "output folder " + shortened(dir) + " is not writable: " + std::strerror(errno) +
                 " (no file can be created in it)";
        return false;
    }
    close(fd);
    unlink(probe.c_str());
    return true;
}

namespace {

// The path each process makes of the template (its {pid} at its widest) and its folder.
std::pair<std::string, std::string> expandedPath(const std::string& outputTemplate,
                                                 const std::string& rank) {
    std::string path =
        expandOutputPath(outputTemplate, OutputPathValues{widestPid(), rank, hostName()});
    const size_t slash = path.rfind('/');
    std::string dir = slash == 0 ? "/" : path.substr(0, slash);
    return {std::move(path), std::move(dir)};
}

// checkOutputFile's checks on the expanded path.
bool checkFileAt(const std::string& path, const std::string& dir, const std::string& outputTemplate,
                 bool force, std::string* error) {
    struct stat st {};
    if (!checkLength(path, dir, error)) return false;
    // An early, friendly answer only: the collector creates its file exclusively whatever was
    // checked here (io/strata/strata_file_create.h).
    if (outputTemplate.find("{pid}") == std::string::npos && lstat(path.c_str(), &st) == 0) {
        if (!force) {
            *error = path + " exists (an earlier recording?): give another -o, or --force to "
                            "overwrite it";
            return false;
        }
        if (!S_ISREG(st.st_mode)) {
            *error = path +
                     (S_ISLNK(st.st_mode) ? " is a symbolic link" : " is not a regular file") +
                     ": --force replaces an earlier recording's file, never what a link points "
                     "to or anything else; give another -o";
            return false;
        }
    }
    return true;
}

} // namespace

bool checkOutputFile(const std::string& outputTemplate, const std::string& rank, bool force,
                     std::string* error) {
    const auto [path, dir] = expandedPath(outputTemplate, rank);
    return checkFileAt(path, dir, outputTemplate, force, error);
}

bool checkOutputTemplate(const std::string& outputTemplate, const std::string& rank, bool force,
                         std::string* error) {
    const auto [path, dir] = expandedPath(outputTemplate, rank);
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) {
        const int why = errno;
        *error = "output folder " + shortened(dir) + " does not exist";
        if (why != ENOENT) *error += std::string(" (") + std::strerror(why) + ")";
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        *error = "output folder " + shortened(dir) + " does not exist (it is a file)";
        return false;
    }
    if (!checkFolderWritable(dir, error)) return false;
    return checkFileAt(path, dir, outputTemplate, force, error);
}

} // namespace strata
