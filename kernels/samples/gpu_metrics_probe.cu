// gpu_metrics_probe [MIB=1024] [PASSES=16] [ITERS=1048576] [IDLE_MS=40]: what the GPU metrics
// check (tests/collector/tst_gpu_pm_sampling.cpp) records with --gpu-metrics, in this order, each
// alone on the GPU (synchronised between):
//   1. warm-up: both kernels once, small (lazy loading, clocks up), untimed;
//   2. copy: a bandwidth-bound kernel copying MIB MiB (float4) PASSES times over, so it reads and
//      writes MIB * PASSES MiB each (far more than any L2 holds: all of it DRAM traffic);
//   3. IDLE_MS of host sleep: the GPU idles;
//   4. burn: a compute-bound kernel, 8 blocks of 256 threads per SM, each thread ITERS rounds of
//      four independent FMA chains, no memory traffic but its one store.
// Prints copy_bytes (read + written by the copy) and the SM count as key=value lines.
#include "sample_common.h"

#include <thread>

__global__ void copy(const float4* __restrict__ src, float4* __restrict__ dst, size_t n,
                     int passes) {
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (int p = 0; p < passes; ++p)
        for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
            dst[i] = src[i];
}

__global__ void burn(float* out, long iters) {
    float a = threadIdx.x, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    for (long i = 0; i < iters; ++i) {
        a = fmaf(a, 0.9999f, 0.5f);
        b = fmaf(b, 0.9999f, 0.5f);
        c = fmaf(c, 0.9999f, 0.5f);
        d = fmaf(d, 0.9999f, 0.5f);
    }
    out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = a + b + c + d;
}

int main(int argc, char** argv) {
    const long mib = argOr(argc, argv, 1, 1024);
    const int passes = int(argOr(argc, argv, 2, 16));
    const long iters = argOr(argc, argv, 3, 1 << 20);
    const long idleMs = argOr(argc, argv, 4, 40);
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t n = size_t(mib) * (1u << 20) / sizeof(float4);
    float4 *src = nullptr, *dst = nullptr;
    float* out = nullptr;
    CHECK(cudaMalloc(&src, n * sizeof(float4)));
    CHECK(cudaMalloc(&dst, n * sizeof(float4)));
    CHECK(cudaMemset(src, 0, n * sizeof(float4)));
    const int blocks = sms * 8, threads = 256;
    CHECK(cudaMalloc(&out, size_t(blocks) * threads * sizeof(float)));

    copy<<<blocks, threads>>>(src, dst, n / 64, 1); // warm-up
    burn<<<blocks, threads>>>(out, 1000);
    CHECK(cudaDeviceSynchronize());

    copy<<<blocks, threads>>>(src, dst, n, passes);
    CHECK(cudaDeviceSynchronize());
    std::this_thread::sleep_for(std::chrono::milliseconds(idleMs));
    burn<<<blocks, threads>>>(out, iters);
    CHECK(cudaDeviceSynchronize());

    std::printf("copy_bytes=%llu\n", (unsigned long long)(2 * n * sizeof(float4) * size_t(passes)));
    std::printf("sms=%d\nidle_ms=%ld\n", sms, idleMs);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    CHECK(cudaFree(out));
    return 0;
}
