#include "python/cpu_tick_timer.h"

#include "python/python_api.h"

#include <csignal>
#include <cstring>
#include <pthread.h>
#include <unistd.h>

namespace strata::python {

namespace {

volatile sig_atomic_t g_simulated = 0;

void onKernelSignal(int) {
    if (g_simulated && api()) api()->PyErr_SetInterruptEx(g_simulated);
}

} // namespace

bool CpuTickTimer::start(int simulated, int kernelSignal, int64_t periodNs, std::string* why) {
    struct sigaction current {};
    if (sigaction(kernelSignal, nullptr, &current) != 0 ||
        (current.sa_handler != SIG_DFL && current.sa_handler != onKernelSignal)) {
        *why = "signal " + std::to_string(kernelSignal) + " has a handler already";
        return false;
    }
    if (pthread_getcpuclockid(pthread_self(), &clock_) != 0) {
        *why = "no CPU clock for the main thread";
        return false;
    }
    g_simulated = simulated;
    struct sigaction ours {};
    ours.sa_handler = onKernelSignal;
    ours.sa_flags = SA_RESTART;
    sigemptyset(&ours.sa_mask);
    sigaction(kernelSignal, &ours, nullptr);
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = kernelSignal;
    event._sigev_un._tid = gettid();
    if (timer_create(clock_, &event, &timer_) != 0) {
        *why = std::string("timer_create: ") + std::strerror(errno);
        return false;
    }
    itimerspec every{};
    every.it_interval = {time_t(periodNs / 1'000'000'000), long(periodNs % 1'000'000'000)};
    every.it_value = every.it_interval;
    timer_settime(timer_, 0, &every, nullptr);
    running_ = true;
    return true;
}

void CpuTickTimer::stop() {
    if (!running_) return;
    timer_delete(timer_);
    running_ = false;
}

int64_t CpuTickTimer::cpuNs() const {
    timespec t{};
    clock_gettime(clock_, &t);
    return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

} // namespace strata::python
