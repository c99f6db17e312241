// pinned_vs_pageable [MIB=16]: the same host->device and device->host copies from pageable
// (malloc) and pinned (cudaMallocHost) memory, so a trace can be checked for the memory kinds.
#include "sample_common.h"

#include <cstring>

int main(int argc, char** argv) {
    const size_t bytes = size_t(argOr(argc, argv, 1, 16)) << 20;
    void* pageable = std::malloc(bytes);
    void* pinned = nullptr;
    void* device = nullptr;
    CHECK(cudaMallocHost(&pinned, bytes));
    CHECK(cudaMalloc(&device, bytes));
    std::memset(pageable, 1, bytes);
    std::memset(pinned, 2, bytes);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMemcpyAsync(device, pageable, bytes, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(pageable, device, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemcpyAsync(pinned, device, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaMemsetAsync(device, 0, bytes, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(device));
    CHECK(cudaFreeHost(pinned));
    std::free(pageable);
    std::printf("bytes=%zu\ncopies=4\n", bytes);
    return 0;
}
