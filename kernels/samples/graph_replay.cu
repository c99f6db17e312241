// graph_replay: a CUDA graph of three kernel nodes (spin 20, 10 and 30 us, one after the other)
// and a host node between the second and the third (cudaLaunchHostFunc in the capture: CUPTI
// records nothing for it, the collector's topology lists it), captured from a stream,
// instantiated once and replayed 100 times. Built twice: against the shared cudart and
// (graph_replay_static) the static one, which the collector must record too. Linked with its
// symbols exported, so the host node's function is named by its symbol (strata_graph_host_step).
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

// What the host node runs on CUDA's own thread at each replay: counts them.
static volatile long g_hostSteps = 0;
extern "C" void strata_graph_host_step(void*) {
    g_hostSteps = g_hostSteps + 1;
}

int main(int argc, char** argv) {
    const long replays = argOr(argc, argv, 1, 100);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    nodeA<<<1, 32, 0, s>>>(20000);
    nodeB<<<1, 32, 0, s>>>(10000);
    CHECK(cudaLaunchHostFunc(s, strata_graph_host_step, nullptr));
    nodeC<<<1, 32, 0, s>>>(30000);
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (long i = 0; i < replays; ++i) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    std::printf("replays=%ld\nnodes=3\nhost_steps=%ld\n", replays, long(g_hostSteps));
    return 0;
}
