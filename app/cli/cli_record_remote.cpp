// strata-cli record --remote [user@]host[:port] [--remote-dir DIR] [--keep-remote]
//                   [--ssh-option OPT]... [record options] [-o OUT] -- CMD ARGS...
// The run on another machine (core/record/remote_record.h): this file turns the command line
// into RemoteRecordOptions, passes signals on as a Stop and says what came back.
#include "cli_record_remote.h"

#include "build_info.h"
#include "record/launcher.h"
#include "record/remote_record.h"
#include "util/terminal_text.h"

#include <atomic>
#include <csignal>
#include <cstdio>

namespace strata::cli {

namespace {

RemoteStop gStop;

void onStop(int sig) {
    gStop.request(sig);
}

} // namespace

int recordRemote(const RemoteCommandLine& remote, const RecordOptions& o, bool quiet) {
    RemoteRecordOptions r;
    r.host = remote.host;
    if (!remote.dir.empty()) r.remoteDir = remote.dir;
    r.keepRemote = remote.keep;
    r.fetchRun = remote.fetchRun;
    RecordOptions there = o; // the remote run's options: its own collector, not this one's
    there.collector.clear();
    r.recordArgs = recordArguments(there);
    r.command = o.command;
    r.output = o.output;
    r.force = o.force;
    r.live = o.live;
    r.versionLine = versionLine("strata-cli");
    r.localCli = executablePath();
    std::string error;
    if (o.inject) r.localCollector = findCollector(o, &error); // none built: none copied
    struct sigaction sa {};
    sa.sa_handler = onStop;
    sigemptyset(&sa.sa_mask);
    struct sigaction old[3];
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; ++i) sigaction(sigs[i], &sa, &old[i]);
    const RemoteRecordResult res = recordRemotely(
        r,
        [quiet](const std::string& line) {
            if (!quiet) std::fprintf(stderr, "strata-cli record: %s\n", terminalSafe(line).c_str());
        },
        &gStop);
    for (int i = 0; i < 3; ++i) sigaction(sigs[i], &old[i], nullptr);
    if (!res.error.empty())
        std::fprintf(stderr, "strata-cli record: %s\n", terminalSafe(res.error).c_str());
    if (!quiet) {
        for (const std::string& f : res.files)
            std::fprintf(stderr, "%s\n", terminalSafe(copiedBackLine(r.host, f)).c_str());
        if (r.keepRemote)
            std::fprintf(stderr, "strata-cli record: kept there: %s\n",
                         terminalSafe(res.remoteRun).c_str());
    }
    return res.exitCode;
}

} // namespace strata::cli
