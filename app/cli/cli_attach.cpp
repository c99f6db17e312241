// strata-cli attach --list | --start PID | --stop PID [--json] [--remote HOST ...]
// Starts and stops capturing in a run started with `strata-cli record --wait-for-attach`, here
// (record/attach_control.h) or on another host through its strata-cli over ssh
// (record/attach_remote.h). Exit codes: 0 done, 1 the request failed (no such waiting process,
// it ended, it did not answer), 2 usage, 255 ssh could not reach the host.
#include "cli_commands.h"
#include "cli_options.h"

#include "build_info.h"
#include "contract/collector_env.h"
#include "record/attach_control.h"
#include "record/attach_remote.h"
#include "record/launcher.h"
#include "record/remote_record.h"
#include "util/terminal_text.h"

#include <cstdio>
#include <cstdlib>

namespace strata::cli {
namespace {

const char* kUsage =
    "usage: strata-cli attach --list [--json]\n"
    "       strata-cli attach --start PID | --stop PID [--json] [--timeout SECONDS]\n"
    "       ... [--remote [USER@]HOST[:PORT] [--remote-dir DIR] [--ssh-option OPT]...]\n"
    "Starts and stops capturing in a program started with `strata-cli record --wait-for-attach`:\n"
    "it keeps nothing until --start and keeps records only between each --start and its --stop\n"
    "(several sessions may follow each other). Each request waits until the program's collector\n"
    "acknowledges it (within one flush period, 200 ms by default).\n"
    "\n"
    "  --list                 the programs waiting here: pid, state, trace file, command\n"
    "  --start PID            start capturing in PID\n"
    "  --stop PID             stop capturing; the records so far are flushed to the trace file,\n"
    "                         whose path is printed (the program goes on and may be attached\n"
    "                         again)\n"
    "  --timeout SECONDS      how long to wait for the acknowledgement (default 10 s plus five\n"
    "                         flush periods)\n"
    "  --json                 print the result as JSON\n"
    "  --remote [USER@]HOST[:PORT]\n"
    "                         the same on that host, through its strata-cli over ssh (this one is\n"
    "                         copied to --remote-dir when missing or another version)\n"
    "  --remote-dir DIR       Strata's folder there (default ~/.cache/strata/remote)\n"
    "  --ssh-option OPT       passed to ssh as -o OPT (repeatable)\n"
    "  -o, --output FILE      with --stop --remote: copy the trace file here as it stands\n"
    "  -f, --force            replace FILE if it exists\n"
    "The waiting programs are listed in $STRATA_ATTACH_DIR, else /tmp/strata-attach-UID (a folder\n"
    "only you may enter); an entry whose program has ended is removed when seen.\n";

struct AttachArgs {
    bool list = false, json = false, force = false;
    int64_t startPid = 0, stopPid = 0;
    double timeoutS = 0;
    std::string remote, remoteDir, output;
    RemoteHost host;
};

TakeValue pidValue(const char* option, int64_t* out) {
    return [option, out](const std::string& v) -> std::string {
        char* end = nullptr;
        const long long p = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || p <= 0)
            return std::string(option) + " expects a pid, got '" + v + "'";
        *out = p;
        return {};
    };
}

std::string windowsText(const nlohmann::json& windows) {
    std::string s;
    for (const auto& w : windows) {
        if (!s.empty()) s += ", ";
        s += std::to_string(w[0].get<int64_t>()) + " .. " +
             (w[1].is_null() ? std::string("now") : std::to_string(w[1].get<int64_t>()));
    }
    return s.empty() ? "none" : s;
}

void printList(const nlohmann::json& doc, const std::string& where) {
    const auto& runs = doc["runs"];
    if (runs.empty()) {
        std::printf("no program waits for attach %s\n", where.c_str());
        return;
    }
    std::printf("%-8s %-10s %s\n", "PID", "STATE", "TRACE / COMMAND");
    for (const auto& r : runs)
        std::printf("%-8lld %-10s %s\n%-19s %s\n", (long long)r["pid"].get<int64_t>(),
                    r["state"].get<std::string>().c_str(),
                    terminalSafe(r["trace"].get<std::string>()).c_str(), "",
                    terminalSafe(r["command"].get<std::string>()).c_str());
}

void printReply(const nlohmann::json& r) {
    const std::string note = r.value("note", "");
    std::printf("%lld: %s%s (at %lld ns; windows: %s)\ntrace: %s\n",
                (long long)r["pid"].get<int64_t>(), r["state"].get<std::string>().c_str(),
                note.empty() ? "" : (", " + note).c_str(), (long long)r["served_ns"].get<int64_t>(),
                windowsText(r["windows"]).c_str(),
                terminalSafe(r["trace"].get<std::string>()).c_str());
}

// The request here: the document --json prints, or the exit code of a failure (said on stderr).
int attachHere(const AttachArgs& a, nlohmann::json* doc) {
    const std::string dir = attach::registryDir(std::getenv(collector_env::kAttachDir));
    std::string error;
    if (a.list) {
        std::vector<attach::WaitingRun> runs;
        if (!listWaitingRuns(dir, &runs, &error)) {
            std::fprintf(stderr, "strata-cli attach: %s\n", terminalSafe(error).c_str());
            return 1;
        }
        *doc = {{"dir", dir}, {"runs", nlohmann::json::array()}};
        for (const auto& r : runs) (*doc)["runs"].push_back(waitingRunJson(r));
        return 0;
    }
    const bool start = a.startPid > 0;
    const AttachReply reply = requestAttach(dir, start ? a.startPid : a.stopPid,
                                            start ? attach::Request::Start : attach::Request::Stop,
                                            int(a.timeoutS * 1000));
    if (reply.exitCode != 0) {
        std::fprintf(stderr, "strata-cli attach: %s\n", terminalSafe(reply.error).c_str());
        return reply.exitCode;
    }
    *doc = waitingRunJson(reply.run);
    return 0;
}

int attachThere(const AttachArgs& a, nlohmann::json* doc) {
    AttachRemoteOptions o;
    o.host = a.host;
    if (!a.remoteDir.empty()) o.remoteDir = a.remoteDir;
    o.localCli = executablePath();
    o.versionLine = versionLine("strata-cli");
    std::vector<std::string> args;
    if (a.list) args = {"--list"};
    if (a.startPid > 0) args = {"--start", std::to_string(a.startPid)};
    if (a.stopPid > 0) args = {"--stop", std::to_string(a.stopPid)};
    if (a.timeoutS > 0) {
        char s[32];
        std::snprintf(s, sizeof s, "%g", a.timeoutS);
        args.insert(args.end(), {"--timeout", s});
    }
    AttachRemoteResult res = attachRemotely(o, args, [](const std::string& line) {
        std::fprintf(stderr, "strata-cli attach: %s\n", terminalSafe(line).c_str());
    });
    if (res.exitCode != 0) {
        std::fprintf(stderr, "strata-cli attach: %s\n", terminalSafe(res.error).c_str());
        return res.exitCode;
    }
    *doc = std::move(res.document);
    (*doc)["host"] = a.host.text();
    if (a.stopPid > 0 && !a.output.empty()) {
        std::string error;
        if (!copyRemoteFile(a.host, doc->value("trace", ""), a.output, a.force, &error)) {
            std::fprintf(stderr, "strata-cli attach: %s\n", terminalSafe(error).c_str());
            return 1;
        }
        (*doc)["copied_to"] = a.output;
    }
    return 0;
}

} // namespace

int attachCommand(const Args& args) {
    AttachArgs a;
    CommandLine line("attach", kUsage, /*longUsage=*/true);
    line.flag("--list", &a.list)
        .flag("--json", &a.json)
        .flag("-f|--force", &a.force)
        .option("--start", pidValue("--start", &a.startPid))
        .option("--stop", pidValue("--stop", &a.stopPid))
        .option("--timeout", nonNegativeNumber("--timeout", &a.timeoutS))
        .option("--remote", text(&a.remote))
        .option("--remote-dir", text(&a.remoteDir))
        .option("-o|--output", text(&a.output))
        .option("--ssh-option", [&a](const std::string& v) {
            a.host.sshOptions.push_back(v);
            return std::string();
        });
    if (const auto exit = line.parse(args)) return *exit;
    if (int(a.list) + int(a.startPid > 0) + int(a.stopPid > 0) != 1)
        return line.usageError("give one of --list, --start PID, --stop PID");
    if (a.remote.empty() && (!a.remoteDir.empty() || !a.host.sshOptions.empty()))
        return line.usageError("--remote-dir and --ssh-option need --remote");
    if (!a.output.empty() && (a.remote.empty() || a.stopPid <= 0))
        return line.usageError("-o copies a remote trace back: it needs --stop and --remote");
    std::string error;
    if (!a.remote.empty() && !parseRemoteHost(a.remote, &a.host, &error))
        return line.usageError(error);
    nlohmann::json doc;
    const int code = a.remote.empty() ? attachHere(a, &doc) : attachThere(a, &doc);
    if (code != 0) return code;
    if (a.json)
        std::printf("%s\n", doc.dump(2).c_str());
    else if (a.list)
        printList(doc, a.remote.empty() ? "here" : "on " + a.remote);
    else {
        printReply(doc);
        if (doc.contains("copied_to"))
            std::printf("copied to %s\n",
                        terminalSafe(doc["copied_to"].get<std::string>()).c_str());
    }
    return 0;
}

} // namespace strata::cli
