#pragma once
// The collective kernels of one trace (NCCL/RCCL all-reduce, all-to-all, send/recv, ...): what
// the cross-rank analysis matches across ranks (analysis/cross_rank.h). A collective is a kernel
// of the communication category (analysis/kernel_category.h: "nccl", "rccl", "allreduce",
// "all_gather", ... in its name: one pattern table). Its process group and sequence number come
// from Kineto's args where the trace has them: "Process Group Name" and "Seq" on the kernel
// itself (PyTorch 2.2 and later), else on the CPU op that launched it or an op around that launch
// (record_param_comms); a trace without them (the PARAM DLRM traces, PyTorch 2.0) leaves the
// group empty and the sequence -1, and the kernels are then matched per stream, in order. From
// the same places: what PyTorch called it ("Collective name": "allreduce", "send", "recv", ...)
// and, for a point-to-point send or receive, its peer's global rank ("Dst Rank" of a send, "Src
// Rank" of a receive), so that only a send and the receive it pairs with are matched
// (analysis/ranks/collective_matching.h).
#include "analysis/ops/gpu_ops.h"
#include "model/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct CollectiveKernel {
    std::string name;  // the kernel's name
    std::string op;    // collectiveOp(name): "AllReduce", "SendRecv", ...
    std::string group; // the process group's name, "" when the trace does not say
    int32_t device = -1;
    int64_t stream = -1;
    int64_t seq = -1; // the process group's sequence number ("Seq"), -1 when absent
    TimeNs start = 0, end = 0;
    std::string collective; // Kineto's "Collective name" ("send", "allreduce"), "" when absent
    int64_t peer = -1;      // a send's "Dst Rank" or a receive's "Src Rank", -1 when absent
    friend bool operator==(const CollectiveKernel&, const CollectiveKernel&) = default;
};

// What a collective kernel does, from its name: the word after "ncclKernel_", "ncclDevKernel_"
// or "rcclKernel_" ("ncclDevKernel_AllGather_RING_LL(...)" -> "AllGather"), else the name up to
// its first '(' or '<'.
std::string collectiveOp(std::string_view kernelName);

// The collective kernels among `ops` (collectGpuOps), by start (then device, stream).
std::vector<CollectiveKernel> findCollectives(const Trace& trace, const GpuOpList& ops);

} // namespace strata
