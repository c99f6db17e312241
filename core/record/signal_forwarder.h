#pragma once
// strata-cli record's signals: while a SignalForwarder lives, SIGINT, SIGTERM and SIGHUP that
// reach the launcher are passed on to the run instead of ending the launcher, which stays to
// complete the run's files (Launcher::finish). One at a time.
#include <csignal>
#include <sys/types.h>

namespace strata {

class SignalForwarder {
public:
    // Installs the handlers. A signal that comes before setTarget() (the target is being
    // started) is held and passed on by setTarget().
    SignalForwarder();
    ~SignalForwarder(); // the previous handlers back
    SignalForwarder(const SignalForwarder&) = delete;
    SignalForwarder& operator=(const SignalForwarder&) = delete;

    // toGroup (the target leads its own group, Launcher::processGroup): every such signal, from
    // kill or from the terminal, goes to the target's whole group. Otherwise (strata-cli as a
    // terminal's foreground job, one group with the target): the terminal's Ctrl-C already
    // reached the target and its children, so only signals sent to the launcher alone (kill)
    // go on, to the target.
    void setTarget(pid_t target, bool toGroup);

private:
    struct sigaction old_[3]{};
};

} // namespace strata
