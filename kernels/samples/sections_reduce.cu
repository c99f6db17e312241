// Sample: a block reduction instrumented with Strata's in-kernel sections, one recorder per warp
// (load + warp reduce / block reduce / write). Built as sections_reduce and
// sections_reduce_off (-DSTRATA_SECTIONS=0) like sections_matmul.
//   sections_reduce [N=16777216] [LAUNCHES=5]
#include "sample_common.h"

#include <strata/sections_host.h>

#include <vector>

namespace {

constexpr int kThreads = 256;
enum Section { Load = 0, BlockReduce = 1, Write = 2 };

__global__ void reduce(const float* x, float* out, int n, strata::SectionsBuffer sb) {
    __shared__ float partial[kThreads / 32];
    strata::Sections s(sb, strata::kPerWarp);
    s.begin(Load);
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        v += x[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    s.next(BlockReduce);
    if (threadIdx.x < 32) {
        v = threadIdx.x < kThreads / 32 ? partial[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    s.next(Write);
    if (threadIdx.x == 0) atomicAdd(out, v);
    s.end();
}

} // namespace

int main(int argc, char** argv) {
    const int n = int(argOr(argc, argv, 1, 1 << 24));
    const int launches = int(argOr(argc, argv, 2, 5));
    std::vector<float> host(size_t(n), 1.0f);
    float *x, *out;
    CHECK(cudaMalloc(&x, size_t(n) * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    CHECK(cudaMemcpy(x, host.data(), size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = sms * 4;
    strata::SectionsRecorder rec({"load + warp reduce", "block reduce", "write"},
                                 uint32_t(blocks * (kThreads / 32) * 3), strata::kPerWarp);
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    float totalMs = 0, result = 0;
    for (int i = 0; i < launches; ++i) {
        strata::SectionsBuffer sb = rec.arm();
        CHECK(cudaMemset(out, 0, sizeof(float)));
        CHECK(cudaEventRecord(e0));
        reduce<<<blocks, kThreads>>>(x, out, n, sb);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (i > 0) totalMs += ms;
#if STRATA_SECTIONS
        const auto d = rec.collect("reduce");
        if (i == 0)
            std::printf("delivery=%s\n", d == strata::SectionsDelivery::Collector ? "collector"
                                         : d == strata::SectionsDelivery::File    ? "file"
                                                                                  : "failed");
#endif
    }
    CHECK(cudaMemcpy(&result, out, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("n=%d\nblocks=%d\nwarps_per_block=%d\nsections=%d\nmean_kernel_ms=%.4f\nsum=%g\n",
                n, blocks, kThreads / 32, STRATA_SECTIONS,
                launches > 1 ? totalMs / float(launches - 1) : 0.f, double(result));
    return result == float(n) ? 0 : 1;
}
