#include "record/remote_host.h"

#include <cstdlib>

namespace strata {

std::string RemoteHost::destination() const {
    return user.empty() ? host : user + "@" + host;
}

std::string RemoteHost::text() const {
    const std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return (user.empty() ? "" : user + "@") + h + (port ? ":" + std::to_string(port) : "");
}

bool parseRemoteHost(std::string_view text, RemoteHost* out, std::string* error) {
    RemoteHost r;
    r.sshOptions = out->sshOptions;
    const auto fail = [&](const std::string& why) {
        *error = "--remote expects [user@]host[:port], got '" + std::string(text) + "': " + why;
        return false;
    };
    std::string_view rest = text;
    if (const size_t at = rest.rfind('@'); at != std::string_view::npos) {
        r.user = std::string(rest.substr(0, at));
        if (r.user.empty()) return fail("no user before '@'");
        rest = rest.substr(at + 1);
    }
    std::string_view port;
    if (!rest.empty() && rest.front() == '[') { // [v6 address]:port
        const size_t close = rest.find(']');
        if (close == std::string_view::npos) return fail("no ']' after '['");
        r.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return fail("text after ']'");
            port = rest.substr(1);
        }
    } else if (const size_t colon = rest.find(':'); colon != std::string_view::npos) {
        if (rest.find(':', colon + 1) != std::string_view::npos)
            return fail("an IPv6 address goes in brackets");
        r.host = std::string(rest.substr(0, colon));
        port = rest.substr(colon + 1);
    } else {
        r.host = std::string(rest);
    }
    if (r.host.empty()) return fail("no host");
    if (r.host.front() == '-') return fail("a host does not start with '-'");
    for (const char c : r.host + r.user)
        if (c <= ' ' || c == '\'' || c == '"' || c == '\\') return fail("a space or quote in it");
    if (port.data()) {
        char* end = nullptr;
        const std::string p(port);
        const long v = std::strtol(p.c_str(), &end, 10);
        if (p.empty() || *end || v < 1 || v > 65535) return fail("the port is not 1..65535");
        r.port = int(v);
    }
    *out = std::move(r);
    return true;
}

std::vector<std::string> sshArgv(const RemoteHost& host, const std::string& command) {
    std::vector<std::string> argv = {"ssh", "-T", "-o", "BatchMode=yes"};
    if (host.port) argv.insert(argv.end(), {"-p", std::to_string(host.port)});
    for (const std::string& o : host.sshOptions) argv.insert(argv.end(), {"-o", o});
    argv.insert(argv.end(), {host.destination(), "--", command});
    return argv;
}

std::string describeSshFailure(const RemoteHost& host, const std::string& sshStderr) {
    std::string last; // ssh's last line says what went wrong
    size_t end = sshStderr.find_last_not_of("\r\n");
    if (end != std::string::npos) {
        const size_t start = sshStderr.rfind('\n', end);
        last = sshStderr.substr(start == std::string::npos ? 0 : start + 1,
                                end - (start == std::string::npos ? 0 : start + 1) + 1);
    }
    const std::string who = host.text();
    if (last.find("Permission denied") != std::string::npos)
        return who + " refused the login (no key it accepts; Strata asks for no password): " + last;
    if (last.find("Host key verification failed") != std::string::npos)
        return who +
               "'s host key is not known or has changed (connect once with ssh to check "
               "it): " +
               last;
    if (last.empty()) return "cannot reach " + who + " (ssh said nothing)";
    return "cannot reach " + who + ": " + last;
}

} // namespace strata
