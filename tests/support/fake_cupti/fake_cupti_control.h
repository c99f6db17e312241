#pragma once
// Test-control API of libfake_cupti.so, the stand-in CUPTI used to test the collector without a
// GPU. The fake implements the subset of CUPTI the collector calls, with the real CUDA 13 CUPTI
// headers' types; these functions let a test play the driver: feed activity records (as the
// real structs, e.g. CUpti_ActivityKernel10), complete buffers, invoke callbacks, and observe
// what the collector asked of CUPTI.
#include <cupti.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Make the next cuptiSubscribe/_v2 fail with `result`, reporting `oldSubscriber` (may be NULL).
void fake_cupti_fail_subscribe(CUptiResult result, const char* oldSubscriber);
// Copy one activity record into the current buffer (requesting one from the collector when
// needed). Returns 1 when stored, 0 when the collector gave no buffer (the record is dropped and
// counted for cuptiActivityGetNumDroppedRecords).
int fake_cupti_feed(const void* record, size_t size);
// Hand the current buffer (if any) to the collector's completion callback, as CUPTI does.
void fake_cupti_complete(void);
// Add to the count cuptiActivityGetNumDroppedRecords reports (and then resets).
void fake_cupti_add_dropped(size_t n);
// Call the subscriber's callback as the driver would; returns 1 when delivered (subscribed and the
// domain/cbid enabled), 0 otherwise.
int fake_cupti_invoke_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void* cbdata);
// raise(sig) while holding the stand-in's lock, as a signal that arrives while the program is
// inside CUPTI (a flush from another thread cannot proceed until this returns).
void fake_cupti_raise_while_locked(int sig);
// The collector's clock: the registered timestamp callback (CLOCK_MONOTONIC_RAW ns otherwise).
uint64_t fake_cupti_now(void);

// Observations.
int fake_cupti_activity_enabled(CUpti_ActivityKind kind);
int fake_cupti_runtime_api_enabled(CUpti_CallbackId cbid); // 1 unless disabled per cbid
int fake_cupti_driver_api_enabled(CUpti_CallbackId cbid);
int fake_cupti_domain_enabled(CUpti_CallbackDomain domain);
int fake_cupti_timestamp_registrations(void);
int fake_cupti_subscribe_calls(void);
int fake_cupti_flush_calls(int forcedOnly);
int fake_cupti_buffers_requested(void);
int fake_cupti_buffers_completed(void);
int fake_cupti_nvtx_initializations(void);
int fake_cupti_thread_id_type(void);

#ifdef __cplusplus
}
#endif
