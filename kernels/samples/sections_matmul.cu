// Sample: a tiled matrix multiply instrumented with Strata's in-kernel sections (load tile /
// compute / store), for strata-cli record and the Sections view. Built twice: sections_matmul
// (marks on) and sections_matmul_off (-DSTRATA_SECTIONS=0, the same kernel without marks), so
// the cost of the marks is the difference of their kernel times (docs/sections.md).
//   sections_matmul [N=1024] [LAUNCHES=5]
// Prints key=value lines: the blocks, the kernel's mean time (CUDA events, the first launch
// left out) and where the records went.
#include "sample_common.h"

#include <strata/sections_host.h>

#include <vector>

namespace {

constexpr int kTile = 32;
enum Section { LoadTile = 0, Compute = 1, Store = 2 };

__global__ void matmul(const float* a, const float* b, float* c, int n, strata::SectionsBuffer sb) {
    __shared__ float ta[kTile][kTile];
    __shared__ float tb[kTile][kTile];
    strata::Sections s(sb);
    const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < n / kTile; ++t) {
        s.next(LoadTile); // one iteration per tile: the view shows each
        ta[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
        __syncthreads();
        s.next(Compute);
        for (int k = 0; k < kTile; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    s.next(Store);
    c[row * n + col] = acc;
    __syncthreads();
    s.end();
}

} // namespace

int main(int argc, char** argv) {
    const int n = int(argOr(argc, argv, 1, 1024)) / kTile * kTile;
    const int launches = int(argOr(argc, argv, 2, 5));
    const size_t bytes = size_t(n) * n * sizeof(float);
    std::vector<float> host(size_t(n) * n, 1.0f);
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, host.data(), bytes, cudaMemcpyHostToDevice));
    const dim3 block(kTile, kTile), grid(n / kTile, n / kTile);
    // Each block records 2 sections per tile and a store: capacity for all of them.
    const uint32_t capacity = grid.x * grid.y * (2 * (n / kTile) + 1);
    strata::SectionsRecorder rec({"load tile", "compute", "store"}, capacity);
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    float totalMs = 0;
    for (int i = 0; i < launches; ++i) {
        strata::SectionsBuffer sb = rec.arm();
        CHECK(cudaEventRecord(e0));
        matmul<<<grid, block>>>(a, b, c, n, sb);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (i > 0) totalMs += ms; // the first launch warms up
#if STRATA_SECTIONS
        const auto d = rec.collect("matmul");
        if (i == 0)
            std::printf("delivery=%s\n", d == strata::SectionsDelivery::Collector ? "collector"
                                         : d == strata::SectionsDelivery::File    ? "file"
                                                                                  : "failed");
#endif
    }
    CHECK(cudaMemcpy(host.data(), c, sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("n=%d\nblocks=%u\nsections=%d\nmean_kernel_ms=%.4f\ncheck=%g\n", n, grid.x * grid.y,
                STRATA_SECTIONS, launches > 1 ? totalMs / float(launches - 1) : 0.f,
                double(host[0]));
    return host[0] == float(n) ? 0 : 1;
}
