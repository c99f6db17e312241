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

// cuptiGetTimestamp returns the collector's clock plus `offsetNs`: a CUPTI whose normalized time is
// not the registered timestamp callback's (as without one).
void fake_cupti_set_timestamp_offset(int64_t offsetNs);

// Observations.
int fake_cupti_callback_enabled(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
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

// ---- CUDA graph ids (fake_cupti_graph.cpp) ----------------------------------------------------
// Opaque handles that cuptiGetGraphId, cuptiGetGraphExecId and cuptiGetGraphNodeId know by the id
// given here (the same id gives the same handle): the graphs, executable graphs and nodes a test
// hands the collector in CUpti_GraphData and through its stand-in driver.
CUgraph fake_cupti_graph(uint32_t id);
CUgraphExec fake_cupti_graph_exec(uint32_t id);
CUgraphNode fake_cupti_graph_node(uint64_t id);

// ---- PM sampling and the profiler host (fake_cupti_pm.cpp) -----------------------------------
// The device a context is on, as the resource callbacks hand contexts over (cuptiGetDeviceId
// knows it).
CUcontext fake_cupti_context(uint32_t device);
// `function` (a CUPTI function's name, e.g. "cuptiPmSamplingEnable") fails with `result` from now.
void fake_cupti_pm_fail(const char* function, CUptiResult result);
// cuptiProfilerDeviceSupported says the device's architecture does not support PM sampling.
void fake_cupti_pm_unsupported(void);
// The chip lacks `metric`: cuptiProfilerHostConfigAddMetrics refuses it (INVALID_METRIC_NAME).
void fake_cupti_pm_lack_metric(const char* metric);
// More than `n` metrics in a config image need a second pass (default 64).
void fake_cupti_pm_metrics_per_pass(size_t n);
// A counter data image holds at most `samples` samples, whatever maxSamples it was sized for.
void fake_cupti_pm_limit_image(uint32_t samples);
// A sample the GPU took on `device` (GPU time, ns): `count` values, metrics[i] = values[i];
// EvaluateToGpuValues gives NaN for a metric not named. Decoded in the order queued.
void fake_cupti_pm_queue_sample(uint32_t device, uint64_t start, uint64_t end,
                                const char* const* metrics, const double* values, size_t count);
// The next decode on `device` reports an overflow of the hardware buffer: with asError, it
// returns CUPTI_ERROR_OUT_OF_MEMORY (nothing decoded) until sampling is started again; else it
// decodes and sets the overflow flag.
void fake_cupti_pm_overflow(uint32_t device, int asError);
// Observations of `device`: sampling state (0 disabled, 1 enabled, 2 started), the last
// SetConfig's interval, trigger mode, append mode and hardware buffer, the metrics of its config
// image (comma-separated), how often it was enabled and started, counter data images
// initialised, decodes that stopped with the image full, and cuptiProfilerInitialize calls.
int fake_cupti_pm_state(uint32_t device);
uint64_t fake_cupti_pm_interval(uint32_t device);
int fake_cupti_pm_trigger_mode(uint32_t device);
int fake_cupti_pm_append_mode(uint32_t device);
size_t fake_cupti_pm_hardware_buffer(uint32_t device);
const char* fake_cupti_pm_config_metrics(uint32_t device);
int fake_cupti_pm_enables(uint32_t device);
int fake_cupti_pm_starts(uint32_t device);
int fake_cupti_pm_image_inits(uint32_t device);
int fake_cupti_pm_full_stops(uint32_t device);
int fake_cupti_profiler_initializations(void);
// Host objects alive (initialised and not yet deinitialised).
int fake_cupti_pm_host_objects(void);

// ---- The range profiler (fake_cupti_range.cpp) -----------------------------------------------
// Shares the profiler host, the device support and the chip with PM sampling above:
// fake_cupti_pm_lack_metric, fake_cupti_pm_metrics_per_pass and fake_cupti_pm_unsupported apply
// to it too.
// What the next launch measured on `device` evaluates to: metrics[i] = values[i] (NaN for a
// metric not named). Each Stop of a started range profiler on the device takes the next set
// queued, in order; with none queued, the launch gives no range.
void fake_cupti_range_queue(uint32_t device, const char* const* metrics, const double* values,
                            size_t count);
// `function` fails with `result` from now: a range profiler call (cuptiRangeProfilerEnable, ...,
// cuptiProfilerGetCounterAvailability) or one it shares with PM sampling (cuptiProfilerInitialize,
// cuptiProfilerHostConfigAddMetrics, ...).
void fake_cupti_range_fail(const char* function, CUptiResult result);
// The calls made of `function`, one of the range profiler's (NULL: of all of them together).
int fake_cupti_range_calls(const char* function);
// Observations of `device`'s range profiler: its state (0 disabled, 1 enabled, 2 started) and
// its last SetConfig, "range=1 replay=2 ranges=1 nesting=1 metrics=a,b" (CUpti_ProfilerRange,
// CUpti_ProfilerReplayMode, maxRangesPerPass, numNestingLevels, the config image's metrics).
int fake_cupti_range_state(uint32_t device);
const char* fake_cupti_range_config(uint32_t device);

#ifdef __cplusplus
}
#endif
