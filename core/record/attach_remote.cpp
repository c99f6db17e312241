#include "record/attach_remote.h"

#include "record/remote_record.h"
#include "util/shell_words.h"

namespace strata {

namespace {

// The remote's own message: its first line, without the "strata-cli attach: " it starts with.
std::string remoteMessage(const std::string& err) {
    std::string line = err.substr(0, err.find('\n'));
    constexpr std::string_view prefix = "strata-cli attach: ";
    if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
    return line;
}

} // namespace

AttachRemoteResult attachRemotely(const AttachRemoteOptions& o,
                                  const std::vector<std::string>& args,
                                  const std::function<void(const std::string&)>& say) {
    AttachRemoteResult res;
    RemoteRecordOptions deploy;
    deploy.host = o.host;
    deploy.remoteDir = o.remoteDir;
    deploy.localCli = o.localCli;
    deploy.versionLine = o.versionLine;
    RemoteRecordResult deployed;
    if (!ensureRemoteStrataCli(deploy, say, &deployed)) {
        res.exitCode = deployed.exitCode == 255 ? 255 : 2;
        res.error = deployed.error;
        return res;
    }
    std::string command = remoteStrataCli(o.remoteDir) + " attach --json";
    for (const std::string& a : args) command += " " + quoteShellWord(a);
    const RemoteCommandRun run = runRemoteCommand(o.host, command);
    res.exitCode = run.code;
    if (run.code == 255) {
        res.error = describeSshFailure(o.host, run.err);
        return res;
    }
    if (run.code != 0) {
        res.error =
            (run.err.empty() ? "strata-cli attach failed (exit " + std::to_string(run.code) + ")"
                             : remoteMessage(run.err)) +
            " (on " + o.host.text() + ")";
        return res;
    }
    res.document = nlohmann::json::parse(run.out, nullptr, false);
    if (res.document.is_discarded()) {
        res.exitCode = 1;
        res.error = "strata-cli attach on " + o.host.text() +
                    " printed no JSON: " + run.out.substr(0, run.out.find('\n'));
    }
    return res;
}

} // namespace strata
