#pragma once
// The main thread's own ticks for --python sample: a timer on the main thread's CPU clock
// (timer_create on pthread_getcpuclockid, delivered to that thread alone) fires once per
// sampling period of CPU the thread uses. Its signal handler, installed with SA_RESTART so no
// system call of the program sees EINTR, only tells Python "signal S arrived"
// (PyErr_SetInterruptEx, async-signal-safe); S is a signal no one sends, whose Python handler
// is the agent's (the bootstrap sets it with signal.signal), so at the interpreter's next check
// the main thread samples itself, where it is, whatever the sampler thread's scheduling. The
// timer does not fire while the thread sleeps or waits: those ticks stay the sampler thread's.
#include <cstdint>
#include <ctime>
#include <string>

namespace strata::python {

class CpuTickTimer {
public:
    // On the main thread: the timer for `periodNs` of its CPU, raising `simulated` in Python
    // through `kernelSignal`. False with `why` when a signal is taken or the timer refused.
    bool start(int simulated, int kernelSignal, int64_t periodNs, std::string* why);
    void stop();
    bool running() const { return running_; }
    // The main thread's CPU time (any thread may ask).
    int64_t cpuNs() const;

private:
    bool running_ = false;
    clockid_t clock_{};
    timer_t timer_{};
};

} // namespace strata::python
