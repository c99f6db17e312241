// nvtx_nested [STEPS=5]: NVTX ranges nested three deep (step > forward > layer), a mark per
// step, and a start/end range that begins on one thread and ends on another. "forward" is
// pushed with event attributes giving it a colour (0xFF76B900).
#include "sample_common.h"

#include <nvtx3/nvToolsExt.h>
#include <thread>

__global__ void layer(unsigned long long ns) {
    gpuSpinNs(ns);
}

int main(int argc, char** argv) {
    const long steps = argOr(argc, argv, 1, 5);
    const nvtxRangeId_t whole = nvtxRangeStartA("whole run");
    for (long s = 0; s < steps; ++s) {
        nvtxRangePushA("step");
        nvtxMarkA("step begins");
        nvtxEventAttributes_t forward{};
        forward.version = NVTX_VERSION;
        forward.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        forward.colorType = NVTX_COLOR_ARGB;
        forward.color = 0xFF76B900;
        forward.messageType = NVTX_MESSAGE_TYPE_ASCII;
        forward.message.ascii = "forward";
        nvtxRangePushEx(&forward);
        for (int l = 0; l < 3; ++l) {
            nvtxRangePushA("layer");
            layer<<<1, 32>>>(20000);
            CHECK(cudaGetLastError());
            nvtxRangePop();
        }
        nvtxRangePop();
        CHECK(cudaDeviceSynchronize());
        nvtxRangePop();
    }
    std::thread([whole] { nvtxRangeEnd(whole); }).join(); // ends on another thread
    std::printf("steps=%ld\nlayers_per_step=3\n", steps);
    return 0;
}
