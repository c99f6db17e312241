// two_streams: kernels on two streams that overlap in time, and a cross-stream dependency:
// stream B waits (cudaStreamWaitEvent) for an event recorded on stream A after `producer`.
#include "sample_common.h"

__global__ void spin(unsigned long long ns) {
    gpuSpinNs(ns);
}

int main() {
    cudaStream_t a, b;
    CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t produced;
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));
    for (int i = 0; i < 5; ++i) {
        spin<<<1, 32, 0, a>>>(200000); // 200 µs on A
        spin<<<1, 32, 0, b>>>(200000); // 200 µs on B, overlapping
    }
    spin<<<1, 32, 0, a>>>(500000); // producer, 500 µs
    CHECK(cudaEventRecord(produced, a));
    CHECK(cudaStreamWaitEvent(b, produced, 0));
    spin<<<1, 32, 0, b>>>(100000); // consumer: starts after the producer ends
    CHECK(cudaStreamSynchronize(a));
    CHECK(cudaStreamSynchronize(b));
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    std::printf("overlapping_pairs=5\nproducer_us=500\nconsumer_us=100\n");
    return 0;
}
