// launch_gaps [N=1000] [HOST_US=50]: N tiny kernels on one stream with HOST_US µs of host work
// between launches, so the GPU idles at least HOST_US µs between consecutive kernels and every
// kernel links to one cudaLaunchKernel.
#include "sample_common.h"

__global__ void tiny(int* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(out, 1);
}

int main(int argc, char** argv) {
    const long n = argOr(argc, argv, 1, 1000);
    const long hostUs = argOr(argc, argv, 2, 50);
    int* counter = nullptr;
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    for (long i = 0; i < n; ++i) {
        tiny<<<1, 32>>>(counter);
        CHECK(cudaGetLastError());
        hostBusyWaitUs(double(hostUs));
    }
    CHECK(cudaDeviceSynchronize());
    int result = 0;
    CHECK(cudaMemcpy(&result, counter, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(counter));
    std::printf("launches=%ld\nhost_us=%ld\ncounter=%d\n", n, hostUs, result);
    return result == n ? 0 : 1;
}
