/* The hand-over of in-kernel section records from the host helper (strata/sections_host.h) to
   the injected Strata collector, which exports these C functions (found with dlsym, so a program
   never links against the collector and runs the same without it):

     int     strata_collector_sections_arm(void);
         From now on the collector notes, per thread, the correlation id of each kernel launch
         (runtime and driver API callbacks on the launch calls only). 1 when recording.
     int64_t strata_collector_last_launch(void);
         The calling thread's last kernel launch's correlation id, -1 when none was noted.
     int     strata_collector_sections_submit(const StrataSectionsSubmission*);
         Writes the records into the trace, attached to the launch `correlation` (-1: the
         calling thread's last launch). 1 when written.

   Plain C, so the collector and any host language's FFI (ctypes) can use it. */
#ifndef STRATA_SECTIONS_ABI_H
#define STRATA_SECTIONS_ABI_H

#include <stdint.h>

#define STRATA_SECTIONS_ABI_VERSION 1u

typedef struct StrataSectionsSubmission {
    uint32_t version;    /* STRATA_SECTIONS_ABI_VERSION */
    uint32_t scope;      /* 0: one recorder per block, 1: per warp */
    int32_t device;      /* CUDA device ordinal */
    uint32_t name_count; /* section names, by id */
    const char* const* names;
    const char* kernel;  /* the kernel's name (may be NULL) */
    double clock_hz;     /* SM clock rate (cudaDevAttrClockRate), 0 if unknown */
    const void* records; /* record_count records of 48 bytes (sections.cuh) */
    uint64_t record_count;
    uint64_t attempted;  /* the device counter: records the kernel tried to write */
    int64_t correlation; /* the launch, -1: the calling thread's last one */
} StrataSectionsSubmission;

#endif
