#pragma once
// The C callbacks the collector gives CUPTI: activity buffers requested and completed
// (cuptiActivityRegisterCallbacks) and its subscriber's callback (cuptiSubscribe_v2) for NVTX,
// cudaProfilerStart/Stop, cudaDeviceReset, context destruction, CUDA graph instantiations
// (graphs/graph_topology.h) and CUPTI's fatal errors. Each does nothing unless the collector
// records in this process.
#include <cupti.h>

#include <cstddef>
#include <cstdint>

namespace strata {

// Hands CUPTI a buffer from the pool (none when the pool is exhausted: CUPTI counts the drop).
void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords);
// Parses a full buffer into the writer under the parser lock, then returns it to the pool.
void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t* buffer, size_t size,
                              size_t validSize);
void CUPTIAPI subscriberCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void* data);

} // namespace strata
