// graph_replay: a CUDA graph of three kernel nodes (spin 20, 10 and 30 us, one after the other),
// captured from a stream, instantiated once and replayed 100 times. Built twice: against the
// shared cudart and (graph_replay_static) the static one, which the collector must record too.
#include "sample_common.h"

__global__ void nodeA(unsigned long long ns) {
    gpuSpinNs(ns);
}
__global__ void nodeB(unsigned long long ns) {
    gpuSpinNs(ns);
}
__global__ void nodeC(unsigned long long ns) {
    gpuSpinNs(ns);
}

int main(int argc, char** argv) {
    const long replays = argOr(argc, argv, 1, 100);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    nodeA<<<1, 32, 0, s>>>(20000);
    nodeB<<<1, 32, 0, s>>>(10000);
    nodeC<<<1, 32, 0, s>>>(30000);
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (long i = 0; i < replays; ++i) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    std::printf("replays=%ld\nnodes=3\n", replays);
    return 0;
}
