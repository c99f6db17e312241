#pragma once
// A remote target of `strata-cli record --remote` (issue 50): where it is, and the argv of the
// system's OpenSSH client that reaches it. Strata stores no password and asks for none: ssh runs
// in batch mode with the user's own keys, agent and ~/.ssh/config, plus the -o options given.
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct RemoteHost {
    std::string user; // empty: ssh's own choice (~/.ssh/config, else the local user)
    std::string host; // a name, an address or an ~/.ssh/config alias
    int port = 0;     // 0: ssh's own choice
    std::vector<std::string> sshOptions; // each passed as -o OPTION (IdentityFile=..., ...)

    std::string destination() const; // [user@]host, as ssh takes it
    std::string text() const;        // [user@]host[:port], as parse() reads it
};

// "[user@]host[:port]" ("[::1]:2222" for an IPv6 address with a port); false and *error saying
// what is wrong otherwise.
bool parseRemoteHost(std::string_view text, RemoteHost* out, std::string* error);

// The argv that runs `command` (one line for the remote shell) on the host: ssh -T -o
// BatchMode=yes [-p PORT] [-o OPT]... [user@]host -- command.
std::vector<std::string> sshArgv(const RemoteHost& host, const std::string& command);

// What ssh's exit code 255 and its stderr say, in one line for the user ("cannot reach HOST:
// Connection refused", "HOST refused the key: Permission denied (publickey)").
std::string describeSshFailure(const RemoteHost& host, const std::string& sshStderr);

} // namespace strata
