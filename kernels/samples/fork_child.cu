// fork_child: the parent uses CUDA, forks a child that does CPU work only and exits (the
// collector must leave it alone: no hang, no file), then fork+execs itself with --exec-child,
// which uses CUDA and is recorded into its own file ({pid} in the output template).
#include "sample_common.h"

#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

__global__ void work(unsigned long long ns) {
    gpuSpinNs(ns);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--exec-child") == 0) {
        work<<<1, 32>>>(50000);
        CHECK(cudaDeviceSynchronize());
        std::printf("exec_child_pid=%d\n", int(getpid()));
        return 0;
    }
    work<<<1, 32>>>(50000);
    CHECK(cudaDeviceSynchronize());
    const pid_t plain = fork();
    if (plain == 0) {
        volatile double x = 0;
        for (int i = 0; i < 1000000; ++i) x += i * 0.5;
        std::exit(0); // atexit handlers run: they must not touch CUPTI or the parent's file
    }
    int status = 0;
    waitpid(plain, &status, 0);
    std::printf("fork_child_exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    std::fflush(stdout);
    const pid_t execd = fork();
    if (execd == 0) {
        execl("/proc/self/exe", argv[0], "--exec-child", static_cast<char*>(nullptr));
        _exit(127);
    }
    waitpid(execd, &status, 0);
    std::printf("exec_child_exit=%d\nparent_pid=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                int(getpid()));
    work<<<1, 32>>>(50000);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
