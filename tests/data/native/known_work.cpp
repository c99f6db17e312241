// A native program with a known use of CPU, for --cpu-sample (tests/native/tst_native_samples):
// `known_work ROUNDS [OUT.json]`. known::work() calls known::light() (1.3 ms of CPU a call),
// known::heavy() (2.9 ms) and known::nap() (sleeps 2 ms, nearly no CPU) ROUNDS times, on the
// main thread and on a thread named "known-worker". Each measures the CPU time it used with its
// thread's CPU clock; the sums, {"light": ns, "heavy": ns, "nap": ns, "work": ns}, go to OUT.json
// (stdout without it).
#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>

namespace known {

long cpuNs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1'000'000'000L + t.tv_nsec;
}

std::atomic<long> g_light{0}, g_heavy{0}, g_nap{0}, g_work{0};
volatile unsigned long g_sink = 0;

// Spins until `ns` of this thread's CPU time have passed; returns the time it used.
__attribute__((noinline)) long spin(long ns) {
    const long start = cpuNs();
    long now = start;
    while (now - start < ns) {
        for (int i = 0; i < 1000; ++i) g_sink = g_sink + unsigned(i);
        now = cpuNs();
    }
    return now - start;
}

__attribute__((noinline)) void light() {
    g_light += spin(1'300'000);
    g_sink = g_sink + 1; // not a tail call: light() stays on the stack
}

__attribute__((noinline)) void heavy() {
    g_heavy += spin(2'900'000);
    g_sink = g_sink + 1;
}

__attribute__((noinline)) void nap() {
    const long start = cpuNs();
    timespec t{0, 2'000'000};
    nanosleep(&t, nullptr);
    g_nap += cpuNs() - start;
}

__attribute__((noinline)) void work(int rounds) {
    const long start = cpuNs();
    for (int i = 0; i < rounds; ++i) {
        light();
        heavy();
        nap();
    }
    g_work += cpuNs() - start;
}

} // namespace known

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 100;
    std::thread worker([rounds] {
        pthread_setname_np(pthread_self(), "known-worker");
        known::work(rounds);
    });
    known::work(rounds);
    worker.join();
    std::FILE* out = argc > 2 ? std::fopen(argv[2], "w") : stdout;
    if (!out) return 1;
    std::fprintf(out, "{\"light\": %ld, \"heavy\": %ld, \"nap\": %ld, \"work\": %ld}\n",
                 known::g_light.load(), known::g_heavy.load(), known::g_nap.load(),
                 known::g_work.load());
    return out == stdout || std::fclose(out) == 0 ? 0 : 1;
}
