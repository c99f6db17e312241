#pragma once
// Strata in-kernel timer sections: mark where a kernel's time goes, for every block.
//
// Header-only; compiles under nvcc and under NVRTC (CuPy RawKernel, Numba: add
// `-I<strata>/kernels/include`). The kernel takes a strata::SectionsBuffer argument (the host
// side, strata/sections_host.h, allocates it) and marks section boundaries:
//
//     enum Section { Load, Compute, Store };          // names given to the host helper
//     __global__ void k(..., strata::SectionsBuffer sb) {
//         strata::Sections s(sb);                      // one recorder per block (thread 0)
//         s.begin(Load);   ... ;
//         s.next(Compute); ... ;                       // closes Load, opens Compute
//         s.next(Store);   ... ;
//         s.end();
//     }
//
// Every closed section becomes one Record (below) in the buffer: its section id, its start and
// end in clock64() cycles (the SM's own counter) and in %globaltimer ns (one clock for all SMs),
// the SM (%smid), the block and the warp. Only one thread records: thread 0 of the block
// (strata::Sections(sb)), or lane 0 of each warp (strata::Sections(sb, strata::kPerWarp)); put
// the marks where the block agrees on the time (after a __syncthreads()) when the block's view is
// wanted. A section entered again (a loop) records again; the host numbers the iterations in
// start order. The slot comes from one atomicAdd on the buffer's counter; a record past the
// buffer's capacity is not written, and the counter still counts it, so the host reports how many
// were lost (counter - capacity). Nothing is ever written out of bounds.
//
// Compile with -DSTRATA_SECTIONS=0 and every mark compiles to nothing (no clock reads, no
// atomics, no stores); the SectionsBuffer argument stays, so the kernel's signature does not
// change.
//
// The record each closed section leaves (48 bytes) is defined in strata/section_record.h.

#include "strata/section_record.h"

#ifndef STRATA_SECTIONS
#define STRATA_SECTIONS 1
#endif

namespace strata {

// What a kernel takes: where to write, how much room there is, the shared counter.
struct SectionsBuffer {
    SectionRecord* records; // capacity records
    SectionsU64* count;     // records attempted (may exceed capacity)
    SectionsU32 capacity;
    SectionsU32 launch; // copied into every record
};

enum SectionsScope { kPerBlock = 0, kPerWarp = 1 };

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

__device__ __forceinline__ SectionsU64 sectionsGlobalTimer() {
    SectionsU64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ SectionsU32 sectionsSmId() {
    SectionsU32 id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

class Sections {
public:
#if STRATA_SECTIONS
    __device__ __forceinline__ explicit Sections(SectionsBuffer buffer,
                                                 SectionsScope scope = kPerBlock)
        : buffer_(buffer), open_(-1), startClock_(0), startNs_(0) {
        const SectionsU32 thread =
            threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        recorder_ = scope == kPerWarp ? (thread & 31u) == 0u : thread == 0u;
        warp_ = scope == kPerWarp ? thread >> 5 : 0u;
    }
    // Opens `section` (closing the open one, as next() does).
    __device__ __forceinline__ void begin(int section) {
        next(section);
    }
    // Closes the open section and opens `section`, with one reading of the clocks.
    __device__ __forceinline__ void next(int section) {
        if (!recorder_) return;
        const SectionsU64 clock = static_cast<SectionsU64>(clock64());
        const SectionsU64 ns = sectionsGlobalTimer();
        if (open_ >= 0) write(clock, ns);
        open_ = section;
        startClock_ = clock;
        startNs_ = ns;
    }
    // Closes the open section, if any.
    __device__ __forceinline__ void end() {
        if (!recorder_ || open_ < 0) return;
        const SectionsU64 clock = static_cast<SectionsU64>(clock64());
        const SectionsU64 ns = sectionsGlobalTimer();
        write(clock, ns);
        open_ = -1;
    }

private:
    __device__ __forceinline__ void write(SectionsU64 clock, SectionsU64 ns) {
        const SectionsU64 slot = atomicAdd(buffer_.count, 1ull);
        if (slot >= buffer_.capacity) return; // counted, not written: the host reports overflow
        SectionRecord r;
        r.start_clock = startClock_;
        r.end_clock = clock;
        r.start_ns = startNs_;
        r.end_ns = ns;
        r.block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        r.warp = warp_;
        r.section = static_cast<SectionsU16>(open_);
        r.sm = static_cast<SectionsU16>(sectionsSmId());
        r.launch = buffer_.launch;
        buffer_.records[slot] = r;
    }

    SectionsBuffer buffer_;
    int open_;
    bool recorder_;
    SectionsU32 warp_;
    SectionsU64 startClock_;
    SectionsU64 startNs_;
#else
    __device__ __forceinline__ explicit Sections(SectionsBuffer, SectionsScope = kPerBlock) {}
    __device__ __forceinline__ void begin(int) {}
    __device__ __forceinline__ void next(int) {}
    __device__ __forceinline__ void end() {}
#endif
};

#endif // __CUDACC__ || __CUDACC_RTC__

} // namespace strata
