// collector_harness's process scenarios: forks (with a thread feeding and flushing meanwhile),
// signals (SIGTERM, inside a CUPTI call, a target handler chained, SIGABRT) and a launcher that
// dies first.
#include "collector_harness_process.h"

#include "collector_harness_feed.h"

#include <ctime>

int forkScenario() {
    InitializeInjection();
    kernel("before_fork", 1000, 2000, 1);
    strata_collector_flush();
    // A thread keeps feeding and flushing while the main thread forks: the children must neither
    // deadlock on the collector's locks nor write into the parent's file.
    std::atomic<bool> stop{false};
    std::atomic<int> rounds{0};
    std::thread busy([&] {
        uint64_t t = 100000;
        while (!stop.load()) {
            kernel("busy", t, t + 10, 2);
            t += 100;
            strata_collector_flush();
            ++rounds;
        }
    });
    // The forks start once the thread is feeding (a busy CI machine may start it late).
    while (rounds.load() == 0) std::this_thread::yield();
    int ok = 0;
    for (int i = 0; i < 20; ++i) {
        const pid_t child = fork();
        if (child == 0) {
            alarm(10); // a deadlock shows as SIGALRM
            const int st = strata_collector_state();
            // No CUPTI call here (the fake's own lock may have been held by the busy thread at
            // fork time, as CUPTI's would): the collector's flush must refuse without touching it.
            if (strata_collector_flush() != 0) std::exit(50);
            std::exit(st == 3 ? 0 : 40 + st); // runs atexit handlers: must not touch the file
        }
        int status = 0;
        waitpid(child, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            ++ok;
        else
            std::printf("child_status=%d\n", status);
    }
    stop.store(true);
    busy.join();
    kernel("after_fork", 5000, 6000, 4);
    std::printf("children_ok=%d\n", ok);
    observations();
    return 0;
}

// SIGTERM while the program is inside CUPTI (holding its lock) under heavy activity: a flush
// would wait on that lock, so the file is closed without CUPTI's last buffer.
int signalInCuptiScenario() {
    InitializeInjection();
    kernel("flushed", 1000, 2000, 1);
    strata_collector_flush();
    for (int i = 0; i < 1000; ++i) kernel("busy", 3000 + 10 * i, 3005 + 10 * i, 10 + i);
    std::printf("raise_ns=%llu\n", (unsigned long long)fake_cupti_now());
    std::fflush(stdout);
    fake_cupti_raise_while_locked(SIGTERM);
    return 99; // not reached
}

int signalScenario(int sig, bool ownHandler) {
    if (ownHandler) {
        // The target's own SIGTERM handler, installed before CUDA (and the collector) starts.
        std::signal(SIGTERM, [](int) {
            const char msg[] = "target handler ran\n";
            (void)!write(1, msg, sizeof msg - 1);
            _exit(3);
        });
    }
    InitializeInjection();
    kernel("flushed", 1000, 2000, 1);
    strata_collector_flush();
    kernel("pending", 3000, 4000, 2); // still in CUPTI's buffer when the signal comes
    std::fflush(stdout);
    if (sig == SIGABRT) std::abort();
    raise(sig);
    return 99; // not reached
}

int launcherScenario() {
    InitializeInjection();
    kernel("before_launcher_died", 1000, 2000, 1);
    strata_collector_flush();
    std::printf("tracing\n");
    std::fflush(stdout);
    for (int i = 0; i < 600; ++i) {
        const timespec step{0, 100'000'000};
        nanosleep(&step, nullptr);
    }
    return 7;
}

// A kernel "attach_k" every 2 ms, starting at the collector's clock (fake_cupti_now), a buffer
// handed over every ten; every ten kernels a line "t=NS enabled=0|1": the last kernel's start and
// whether CUPTI's kernel activity is on as the line is printed. When $HARNESS_END_FILE exists: one
// more kernel, its line, then "fed=N first=NS last=NS" (the first and last kernels' starts).
int attachScenario() {
    InitializeInjection();
    const char* end = std::getenv("HARNESS_END_FILE");
    uint64_t first = 0, last = 0;
    long fed = 0;
    for (int i = 0; i < 60000; ++i) {
        const bool ending = end && access(end, F_OK) == 0;
        last = fake_cupti_now();
        if (first == 0) first = last;
        kernel("attach_k", last, last + 10, uint32_t(++fed));
        if (fed % 10 == 0 || ending) {
            fake_cupti_complete();
            std::printf("t=%llu enabled=%d\n", (unsigned long long)last,
                        fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
            std::fflush(stdout);
        }
        if (ending) break;
        const timespec step{0, 2'000'000};
        nanosleep(&step, nullptr);
    }
    std::printf("fed=%ld first=%llu last=%llu\n", fed, (unsigned long long)first,
                (unsigned long long)last);
    return 0;
}
