// launch_bound [N=100000]: a loop of N empty kernels; prints the host wall time per launch so an
// overhead benchmark can compare runs with and without the collector.
// launch_bound --timed [N=20] [US=500]: N kernels of about US µs each, each bracketed by CUDA
// events; prints every event-measured duration (event_us_<i>=...) to compare with the trace.
// One untimed spin(0) comes first: CUDA loads a kernel lazily at its first launch, and that load
// falls between the first pair of events (on an H100: 633 µs measured for a 500 µs kernel).
// Each pair of events is queued behind a 200 µs hold() kernel, so the GPU is busy when the start
// event is recorded: with an idle GPU the start event is stamped at once and the time the CPU
// takes to launch the kernel (80 µs seen under CUPTI) falls between the events.
#include "sample_common.h"

#include <cstring>

__global__ void empty() {}
__global__ void spin(unsigned long long ns) {
    gpuSpinNs(ns);
}
__global__ void hold(unsigned long long ns) {
    gpuSpinNs(ns);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--timed") == 0) {
        const long n = argOr(argc, argv, 2, 20);
        const long us = argOr(argc, argv, 3, 500);
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        spin<<<1, 32>>>(0ull); // warm-up (lazy loading), not timed
        CHECK(cudaDeviceSynchronize());
        for (long i = 0; i < n; ++i) {
            hold<<<1, 32>>>(200000ull); // not timed: keeps the GPU busy past the launch below
            CHECK(cudaEventRecord(a));
            spin<<<1, 32>>>((unsigned long long)us * 1000ull);
            CHECK(cudaEventRecord(b));
            CHECK(cudaEventSynchronize(b));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            std::printf("event_us_%ld=%.3f\n", i, double(ms) * 1000.0);
        }
        std::printf("timed_kernels=%ld\n", n);
        return 0;
    }
    const long n = argOr(argc, argv, 1, 100000);
    empty<<<1, 1>>>(); // warm-up: module load, context
    CHECK(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) empty<<<1, 1>>>();
    const auto t1 = std::chrono::steady_clock::now();
    CHECK(cudaDeviceSynchronize());
    const double ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    std::printf("launches=%ld\nlaunch_loop_ns=%.0f\nns_per_launch=%.1f\n", n, ns, ns / double(n));
    return 0;
}
