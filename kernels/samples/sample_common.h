#pragma once
// Shared by the samples: error checks that name the call, and a busy-wait host delay (a sleep
// syscall can oversleep by tens of µs; the tests need "at least N µs" to be exact).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                                \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

inline void hostBusyWaitUs(double us) {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::nanoseconds(static_cast<long long>(us * 1000));
    while (std::chrono::steady_clock::now() < until) {
    }
}

inline long argOr(int argc, char** argv, int i, long fallback) {
    return argc > i ? std::strtol(argv[i], nullptr, 10) : fallback;
}

// Spins on the GPU for about `ns` nanoseconds (globaltimer), so kernels have a known length.
__device__ inline void gpuSpinNs(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}
