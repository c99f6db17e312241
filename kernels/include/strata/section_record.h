// The in-kernel section record: one definition for the device (strata/sections.cuh), the host
// helper (strata/sections_host.h), the collector and Strata's readers (core/model/kernel_sections.h
// reads and writes records through this struct). Plain C++ that nvcc, NVRTC and a host compiler
// all accept: no headers.
//
// Layout (48 bytes, 16-byte aligned, little-endian, no padding), in device memory, in the .sections
// file the host helper writes and in a .strata Sections record (docs/sections.md):
//     offset  0  u64 start_clock   clock64() when the section began
//     offset  8  u64 end_clock     clock64() when it ended
//     offset 16  u64 start_ns      %globaltimer when it began
//     offset 24  u64 end_ns        %globaltimer when it ended
//     offset 32  u32 block         linear block index (x + y*gridDim.x + z*gridDim.x*gridDim.y)
//     offset 36  u32 warp          warp in the block (0 when one thread records per block)
//     offset 40  u16 section       the section id given to begin()/next()
//     offset 42  u16 sm            %smid
//     offset 44  u32 launch        SectionsBuffer::launch (the host helper's launch number)
#ifndef STRATA_SECTION_RECORD_H
#define STRATA_SECTION_RECORD_H

namespace strata {

typedef unsigned long long SectionsU64;
typedef unsigned int SectionsU32;
typedef unsigned short SectionsU16;

struct alignas(16) SectionRecord {
    SectionsU64 start_clock;
    SectionsU64 end_clock;
    SectionsU64 start_ns;
    SectionsU64 end_ns;
    SectionsU32 block;
    SectionsU32 warp;
    SectionsU16 section;
    SectionsU16 sm;
    SectionsU32 launch;
};
static_assert(sizeof(SectionRecord) == 48, "the record layout is 48 bytes");
#if !defined(__CUDACC_RTC__) // NVRTC has no offsetof; every host compiler checks it
static_assert(__builtin_offsetof(SectionRecord, start_ns) == 16, "start_ns at byte 16");
static_assert(__builtin_offsetof(SectionRecord, block) == 32, "block at byte 32");
static_assert(__builtin_offsetof(SectionRecord, section) == 40, "section at byte 40");
static_assert(__builtin_offsetof(SectionRecord, launch) == 44, "launch at byte 44");
#endif

} // namespace strata

#endif
