#include "record/signal_forwarder.h"

#include <atomic>

namespace strata {
namespace {

constexpr int kForwarded[3] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<pid_t> gTarget{-1};
std::atomic<bool> gToGroup{false};
std::atomic<int> gHeld{0}; // a signal that came before the target was known

void pass(pid_t target, int sig) {
    kill(gToGroup.load() ? -target : target, sig);
}

void forwardSignal(int sig, siginfo_t* info, void*) {
    const pid_t target = gTarget.load();
    if (target <= 0) {
        gHeld.store(sig);
        return;
    }
    // One group with the target: the terminal's signals (SI_KERNEL) reached it already; only
    // those sent to us alone (kill: si_code <= 0) are passed on. Its own group: everything.
    if (gToGroup.load() || (info && info->si_code <= 0)) pass(target, sig);
}

} // namespace

SignalForwarder::SignalForwarder() {
    gTarget.store(-1);
    gHeld.store(0);
    struct sigaction sa {};
    sa.sa_sigaction = forwardSignal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &sa, &old_[i]);
}

SignalForwarder::~SignalForwarder() {
    for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &old_[i], nullptr);
    gTarget.store(-1);
}

void SignalForwarder::setTarget(pid_t target, bool toGroup) {
    gToGroup.store(toGroup);
    gTarget.store(target);
    // Stored first: a signal from now on is passed on by the handler itself; one held before
    // (the handler interrupts this thread, so it either completed before or sees the target).
    if (const int held = gHeld.exchange(0); held != 0 && target > 0) pass(target, held);
}

} // namespace strata
