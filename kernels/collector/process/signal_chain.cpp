#include "process/signal_chain.h"

#include <cerrno>
#include <csignal>
#include <cstring>

namespace strata {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
constexpr int kMaxSignal = 65;
struct sigaction g_previous[kMaxSignal];
SignalFlush g_flush = nullptr;

bool isDefault(const struct sigaction& a) {
    return !(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL;
}

void handler(int sig, siginfo_t* info, void* context) {
    const int savedErrno = errno;
    const struct sigaction& prev = g_previous[sig];
    const bool crash = sig != SIGINT && sig != SIGTERM;
    if (g_flush) g_flush(sig, crash || isDefault(prev));
    if (prev.sa_flags & SA_SIGINFO) {
        if (prev.sa_sigaction) prev.sa_sigaction(sig, info, context);
    } else if (prev.sa_handler == SIG_IGN) {
        // the target ignores it: so do we
    } else if (prev.sa_handler == SIG_DFL) {
        // Restore the default and re-raise: delivered when this handler returns (the signal is
        // blocked while it runs), so the process ends the way it would have without us.
        sigaction(sig, &prev, nullptr);
        raise(sig);
    } else {
        prev.sa_handler(sig);
    }
    errno = savedErrno;
}

} // namespace

void installSignalChain(SignalFlush flush) {
    g_flush = flush;
    for (int sig : kSignals) {
        struct sigaction current;
        std::memset(&current, 0, sizeof current);
        if (sigaction(sig, nullptr, &current) != 0) continue;
        // A target that ignores SIGINT/SIGTERM (nohup) keeps ignoring them, untouched.
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
        g_previous[sig] = current;
        struct sigaction ours;
        std::memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = handler;
        ours.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&ours.sa_mask);
        sigaction(sig, &ours, nullptr);
    }
}

} // namespace strata
