#pragma once
// `strata-cli record --remote [user@]host[:port] -- CMD ARGS` (issue 50): the run on another
// machine, over the system's OpenSSH client (record/remote_host.h).
//
//  1. Strata's folder there (default ~/.cache/strata/remote) is asked for its strata-cli's
//     --version and the machine's architecture. When its strata-cli is missing or another
//     version, this strata-cli and its collector are copied there (bin/strata-cli,
//     lib/strata/libstrata_collector.so: where the remote record finds its collector), on the
//     same architecture only.
//  2. The remote strata-cli records CMD into a folder of its own for this run (runs/ID), with
//     the record options given here; its stdout and stderr stream into ours.
//  3. Stop (SIGINT, SIGTERM or SIGHUP here) is sent to the remote strata-cli, which passes it on
//     to CMD's whole process group and still writes the run record.
//  4. When it ends, its trace files are copied back into -o's folder under the names the run
//     gave them there (-o's name, its {pid} {rank} {host} expanded there as in a local run), the
//     remote copies removed unless kept; its exit code is ours. ssh's own failure (255) is said in
//     a line: unreachable host, a key refused, an unknown host key.
#include "record/remote_host.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct RemoteRecordOptions {
    RemoteHost host;
    std::string remoteDir = "~/.cache/strata/remote"; // "~/" is the remote $HOME
    bool keepRemote = false;
    std::vector<std::string> recordArgs; // strata-cli record's options for the remote run
    std::vector<std::string> command;    // CMD ARGS, as the remote side runs them
    std::string output;   // the local path template (empty: strata-STAMP-{host}-{pid}.strata here)
    bool force = false;   // replace an existing local file
    std::string localCli; // this strata-cli, copied when the remote has none
    std::string localCollector; // its collector (empty: none built, none copied)
    std::string versionLine;    // "strata-cli X.Y.Z": what the remote must print
    // --live: the run's trace is also copied here as it grows (record/remote_live_copy.h).
    bool live = false;
    // Nothing run: the files of this earlier run (its ID, runs/ID there) copied back, once it
    // has ended (a run whose connection dropped goes on there to its end).
    std::string fetchRun;
};

struct RemoteRecordResult {
    int exitCode = 2;               // the remote record's (CMD's), or 2 / 255 on a failure here
    std::string error;              // empty unless something failed
    bool deployed = false;          // strata-cli was copied there
    std::vector<std::string> files; // the local copies of the run's trace files
    std::string remoteRun;          // the run's folder there (kept with keepRemote)
};

// The line strata-cli record --remote prints (on stderr) for each file it copied back, and the
// path read back from such a line (the window follows a remote run through the CLI's output).
std::string copiedBackLine(const RemoteHost& host, const std::string& localPath);
std::optional<std::string> copiedBackPath(std::string_view line);
// The line it prints once the run there has started: its id, for `--fetch ID` should this side
// end first ("strata-cli record: the run there is ID"), and the id read back from it.
std::string remoteRunLine(const std::string& run);
std::optional<std::string> remoteRunOf(std::string_view line);

// Stops asked for while the run goes (set from a signal handler): each one is passed on once,
// the first as the signal it was, the second as SIGTERM.
struct RemoteStop {
    std::atomic<int> count{0};
    std::atomic<int> first{0}; // the first signal
    void request(int sig) {    // async-signal-safe
        int none = 0;
        first.compare_exchange_strong(none, sig);
        count.fetch_add(1);
    }
};

// `say` gets progress lines (deploying, fetching); with fetchRun nothing runs, the run's files are
// copied back and its exit code is the result's; `stop` is polled.
RemoteRecordResult recordRemotely(const RemoteRecordOptions& options,
                                  const std::function<void(const std::string&)>& say,
                                  const RemoteStop* stop);

} // namespace strata

namespace strata {

// For the other commands that reach a host (strata-cli attach --remote, record/attach_remote.h).

// One command run there to its end (stdin /dev/null): its exit code (255: ssh's own failure, then
// describeSshFailure(host, err) says it), stdout and stderr.
struct RemoteCommandRun {
    int code = 255;
    std::string out, err;
};
RemoteCommandRun runRemoteCommand(const RemoteHost& host, const std::string& command);
// Step 1 alone: a strata-cli of this version in o.remoteDir there (o.localCli copied when missing
// or another version; o.localCollector too, when not empty). False and res->error otherwise.
bool ensureRemoteStrataCli(const RemoteRecordOptions& o,
                           const std::function<void(const std::string&)>& say,
                           RemoteRecordResult* res);
// The shell words that run the strata-cli in `remoteDir` there ("~/" the remote $HOME).
std::string remoteStrataCli(const std::string& remoteDir);
// The file `remotePath` there copied into `localPath` as it stands (written aside, renamed into
// place whole); an existing local file is replaced only with `force`.
bool copyRemoteFile(const RemoteHost& host, const std::string& remotePath,
                    const std::string& localPath, bool force, std::string* error);

} // namespace strata
