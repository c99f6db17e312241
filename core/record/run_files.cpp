#include "record/run_files.h"

#include "contract/output_path.h"
#include "contract/process_ancestry.h"
#include "io/strata/strata_file_create.h"
#include "io/strata/strata_file_owner.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <dirent.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

// Names in the template's folder that match its file-name part. Only the file name may vary per
// process; {host} and {rank} in the folder are this machine's and the target's values.
std::vector<std::string> matchingNames(const RunFileQuery& q) {
    std::vector<std::string> out;
    const size_t slash = q.outputTemplate.rfind('/');
    const std::string dir =
        expandOutputPath(q.outputTemplate.substr(0, slash), {q.targetPid, q.rank, hostName()});
    const std::string pattern = q.outputTemplate.substr(slash + 1);
    if (!hasPlaceholders(pattern)) {
        out.push_back(dir + "/" + pattern);
        return out;
    }
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            if (matchesOutputPath(pattern, e->d_name)) out.push_back(dir + "/" + e->d_name);
        closedir(d);
    }
    return out;
}

// A regular file changed since the run started (a second of slack for file systems that round).
bool changedSince(const std::string& path, int64_t startedAtSec) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           int64_t(st.st_mtime) >= startedAtSec - 1;
}

// A file with no intact chunk yet at the name the target's own pid, rank and host give: the
// target's, when the name has {pid} (no live process but the target had that pid during the
// run); without {pid}, only when no writer holds it (another recording's fresh file is locked
// from its creation: io/strata/strata_file_create.h).
bool ownNameIsTheTargets(const RunFileQuery& q, const std::string& path) {
    const std::string name = q.outputTemplate.substr(q.outputTemplate.rfind('/') + 1);
    return name.find("{pid}") != std::string::npos || !strataFileBeingWritten(path);
}

} // namespace

std::string makeRunId() {
    uint64_t words[2] = {0, 0};
    if (getrandom(words, sizeof words, 0) != ssize_t(sizeof words)) {
        timespec t{};
        clock_gettime(CLOCK_REALTIME, &t);
        words[0] ^= uint64_t(t.tv_sec) * 1'000'000'000u + uint64_t(t.tv_nsec);
        words[1] ^= (uint64_t(getpid()) << 32) ^ uint64_t(uintptr_t(&t));
    }
    char hex[33];
    std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(words[0]),
                  static_cast<unsigned long long>(words[1]));
    return hex;
}

RunFiles findRunFiles(const RunFileQuery& q) {
    RunFiles r;
    if (q.outputTemplate.empty() || q.runId.empty()) return r;
    const std::string ownName =
        expandOutputPath(q.outputTemplate, {q.targetPid, q.rank, hostName()});
    const std::string target = std::to_string(q.targetPid);
    for (const std::string& path : matchingNames(q)) {
        if (!changedSince(path, q.startedAtSec)) continue;
        const StrataFileOwner owner = readStrataFileOwner(path);
        if (!owner.strata) continue;
        if (owner.runId == q.runId) {
            if (ancestryContains(owner.ancestry, q.targetPid)) {
                r.files.push_back(path);
            } else if (owner.ancestry.empty() && owner.pid == q.targetPid) {
                r.files.push_back(path);
                r.notes.push_back(path + " carries this run's id but no process ancestry (a "
                                         "collector older than this launcher?): taken as the "
                                         "run's for its pid, the target's");
            } else {
                r.notes.push_back(
                    path + " carries this run's id but was not written by the target (pid " +
                    target + ") or a process it started (" +
                    (owner.ancestry.empty() ? std::string("no process ancestry")
                                            : "its writer's ancestry: " + owner.ancestry) +
                    "): not taken as the run's; a copied $STRATA_RUN_ID, or a process that left "
                    "the run (its parent had exited when it started tracing)");
            }
        } else if (owner.intactChunks == 0 && path == ownName && ownNameIsTheTargets(q, path)) {
            r.files.push_back(path);
        } else if (owner.runId.empty() && owner.pid == q.targetPid) {
            r.files.push_back(path);
            r.notes.push_back(path + " carries no run id (a collector older than this launcher?): "
                                     "taken as the run's for its pid, the target's; files of the "
                                     "target's children cannot be told from other runs' then");
        }
    }
    std::sort(r.files.begin(), r.files.end());
    return r;
}

} // namespace strata
