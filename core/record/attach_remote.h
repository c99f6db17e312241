#pragma once
// strata-cli attach --remote [user@]host[:port] (issue 50): the same --list, --start and --stop
// run on that host by its strata-cli (this one copied into Strata's folder there when missing or
// another version, as strata-cli record --remote does: record/remote_record.h), over the system's
// ssh client; what it prints with --json read back here.
#include "record/remote_host.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace strata {

struct AttachRemoteOptions {
    RemoteHost host;
    std::string remoteDir = "~/.cache/strata/remote";
    std::string localCli;    // this strata-cli, copied when the remote has none of its version
    std::string versionLine; // "strata-cli X.Y.Z"
};

struct AttachRemoteResult {
    int exitCode = 2;        // the remote strata-cli attach's, or 255 (ssh), 2 (deployment)
    std::string error;       // empty unless it failed: ssh's failure or the remote's message
    nlohmann::json document; // what it printed (--json), when it succeeded
};

// Runs `strata-cli attach --json ARGS...` there; `say` gets progress lines (copying strata-cli).
AttachRemoteResult attachRemotely(const AttachRemoteOptions& options,
                                  const std::vector<std::string>& args,
                                  const std::function<void(const std::string&)>& say);

} // namespace strata
