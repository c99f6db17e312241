#pragma once
// Theoretical occupancy of a kernel launch: the warps an SM can hold of it against the SM's
// maximum, from its block size, registers per thread (allocated 256 per warp) and shared memory
// (+1 KiB reserved per block from sm_80), on the limits of the trace's device (its Kineto
// deviceProperties, or its compute capability for Strata recordings; blocks per SM and shared
// memory per SM from the CUDA Programming Guide's table). The advisor's occupancy rule uses it.
#include "model/trace.h"

#include <string>

namespace strata {

// Device limits for occupancy: from the trace's deviceProperties metadata (Kineto) or its devices'
// compute capability (.strata recordings); `known` false when neither says.
struct SmLimits {
    bool known = false;
    std::string source;
    int maxThreadsPerSm = 0, maxBlocksPerSm = 0, regsPerSm = 0, sharedPerSm = 0;
    int reservedSharedPerBlock = 0;
};
SmLimits smLimits(const Trace& trace, int32_t device);
// Theoretical occupancy (active warps / the SM's maximum) of a kernel on these limits, and what
// limits it ("warps", "blocks", "registers", "shared memory"). 0 when it cannot run.
double theoreticalOccupancy(const SmLimits& l, int threadsPerBlock, int registersPerThread,
                            int sharedPerBlock, std::string* limiter);

} // namespace strata
