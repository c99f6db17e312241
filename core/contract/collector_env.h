#pragma once
// The contract between the launcher (core/record, strata-cli record, the GUI's Launch dialog) and
// the CUPTI collector (kernels/collector): the environment variables the launcher sets in the
// target and the metadata keys the collector writes. Both sides include this header; plain C++,
// no dependencies. Documented for users in docs/recording.md.
#include <algorithm>
#include <string_view>

namespace strata::collector_env {

// --- Set by the launcher, read by the collector in the target (and its exec'd children) ---

// Output path template. The collector expands {pid}, {rank} and {host} (see
// contract/output_path.h: expandOutputPath) in each process that loads it.
inline constexpr const char* kOutput = "STRATA_OUTPUT";
// Comma-separated activity groups to capture: api,nvtx,kernels,memcpy,memset,sync,memory.
inline constexpr const char* kCapture = "STRATA_CAPTURE";
// CUPTI activity buffer size in bytes (decimal integer).
inline constexpr const char* kBufferSize = "STRATA_BUFFER_SIZE";
// Schedule, counted in steps (like torch.profiler.schedule): skip `wait` steps, trace `warmup`
// steps without keeping them, keep `active` steps; do that `repeat` times (0 = until the end).
// All four unset = capture everything from start to end.
inline constexpr const char* kScheduleWait = "STRATA_SCHEDULE_WAIT";
inline constexpr const char* kScheduleWarmup = "STRATA_SCHEDULE_WARMUP";
inline constexpr const char* kScheduleActive = "STRATA_SCHEDULE_ACTIVE";
inline constexpr const char* kScheduleRepeat = "STRATA_SCHEDULE_REPEAT";
// What a step is: an NVTX range or mark with this name (each occurrence = one step).
inline constexpr const char* kStepName = "STRATA_STEP_NAME";
// Capture only inside NVTX ranges with this name (like nsys --capture-range=nvtx), or with
// "cudaProfilerApi" between cudaProfilerStart and cudaProfilerStop.
inline constexpr const char* kCaptureRange = "STRATA_CAPTURE_RANGE";
// Stop capturing this many seconds (decimal, e.g. "2.5") after the collector loads.
inline constexpr const char* kDuration = "STRATA_DURATION_S";
// How often the collector flushes a chunk to disk, in milliseconds (default 200).
inline constexpr const char* kFlushMs = "STRATA_FLUSH_MS";
// "1": a live run (strata-cli record --live, the window's live view): each flush also forces
// out CUPTI's unfinished buffers, so records reach the file within one flush interval, and the
// count of records CUPTI dropped is written as it changes (kMetaDroppedRecords).
inline constexpr const char* kLive = "STRATA_LIVE";
// The launcher's pid, so a collector knows it runs under strata-cli record / the GUI. The
// launcher starts the target with PR_SET_PDEATHSIG (SIGTERM), and the collector in the target
// (the process whose parent this pid is) notices when the launcher is gone: it closes its file
// with a run record of its own that says so (contract/launcher_tie.h, docs/recording.md).
inline constexpr const char* kLauncherPid = "STRATA_LAUNCHER_PID";
// "1": the user asked to overwrite (--force). The collector may then remove an existing regular
// file at its output path that no live recording holds; without it an existing name is never
// written over (io/strata/strata_file_create.h).
inline constexpr const char* kOverwrite = "STRATA_OVERWRITE";
// A token unique to one run (32 hex digits, random). Every process of the run inherits it; each
// file the run writes carries it as the metadata kMetaRunId, written with the first chunk, and
// the launcher completes only the files that carry its own token (core/record/run_files.h).
inline constexpr const char* kRunId = "STRATA_RUN_ID";

// "1": keep nothing until an attach session starts capture (strata-cli record --wait-for-attach,
// strata-cli attach --start/--stop); records are kept only between each start and its stop. The
// collector registers the process in the attach folder (contract/attach_registry.h) and its flush
// thread serves the requests there.
inline constexpr const char* kWaitForAttach = "STRATA_WAIT_FOR_ATTACH";
// The attach folder (contract/attach_registry.h); unset: /tmp/strata-attach-UID. Read by the
// collector and by strata-cli attach alike.
inline constexpr const char* kAttachDir = "STRATA_ATTACH_DIR";

// What of the target's Python to record: "off", "calls" (every call and return as
// python_function slices) or "sample=HZ" (the stacks of every Python thread, HZ times a second).
// Read by the Python bootstrap (kernels/collector/python/sitecustomize.py), which the launcher
// puts first on PYTHONPATH, and by the collector it loads. Unset: as "off".
inline constexpr const char* kPython = "STRATA_PYTHON";
// Native stacks of every thread sampled HZ times a second (decimal); unset: not sampled.
inline constexpr const char* kCpuSample = "STRATA_CPU_SAMPLE";

// GPU hardware counters over time, through CUPTI's PM sampling (strata-cli record --gpu-metrics):
// "default" (SM active, SM occupancy, tensor pipe active, DRAM read/write, PCIe and NVLink where
// the chip has them) or a comma list of CUPTI metric names. Unset or empty: no GPU metrics, and the
// collector asks nothing of CUPTI's profiler.
inline constexpr const char* kGpuMetrics = "STRATA_GPU_METRICS";
// The PM sampling interval in microseconds (decimal, 1..1000000; default 100).
inline constexpr const char* kGpuMetricsIntervalUs = "STRATA_GPU_METRICS_INTERVAL_US";
// A name STRATA_GPU_METRICS may list: "default", or a CUPTI metric's (letters, digits, '_', '.').
inline bool isGpuMetricName(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.';
    });
}
// Each item of STRATA_GPU_METRICS' comma list, as written (empty ones too), to `f` until it
// returns false.
template <class F> void forEachGpuMetricItem(std::string_view list, F&& f) {
    for (;;) {
        const size_t comma = list.find(',');
        if (!f(list.substr(0, comma)) || comma == std::string_view::npos) return;
        list.remove_prefix(comma + 1);
    }
}

// Per-kernel metrics through CUPTI's range profiler (strata-cli record --kernel-metrics REGEX):
// an ECMAScript regular expression searched in each launched kernel's demangled name; each
// launch it matches is serialised and replayed once per pass the metrics need (kernel replay),
// its values written for its correlation id. Unset or empty: nothing of it runs.
inline constexpr const char* kKernelMetrics = "STRATA_KERNEL_METRICS";
// The metrics measured (--kernel-metrics-set): "default" or a comma list of CUPTI metric names
// (as STRATA_GPU_METRICS lists them); unset: the default set.
inline constexpr const char* kKernelMetricsSet = "STRATA_KERNEL_METRICS_SET";

// The CUDA_INJECTION64_PATH the launcher's own environment had (another tool's injection,
// e.g. under Nsight Systems) when it differs from the collector; unset otherwise. The collector
// can name it in its cupti_error metadata.
inline constexpr const char* kReplacedInjection = "STRATA_REPLACED_INJECTION64_PATH";

// Also set by the launcher (names defined by CUDA / NVTX): both point at the collector .so.
inline constexpr const char* kCudaInjection = "CUDA_INJECTION64_PATH";
inline constexpr const char* kNvtxInjection = "NVTX_INJECTION64_PATH";

// --- Read by the launcher only ---

// Path of libstrata_collector.so, overriding the search next to the strata-cli binary.
inline constexpr const char* kCollectorPath = "STRATA_COLLECTOR";
inline constexpr const char* kCollectorFileName = "libstrata_collector.so";

// Environment variables that give a process's rank, in the order they are tried.
inline constexpr const char* kRankVariables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID",
                                                 "PMI_RANK"};

// --- Metadata keys the collector writes (StrataTraceWriter::metadata) ---

// "1" once the target initialized CUDA, "0" written at load and never updated = it never did.
inline constexpr const char* kMetaCudaInitialized = "cuda_initialized";
// e.g. "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED held by <tool>"; the launcher prints it.
inline constexpr const char* kMetaCuptiError = "cupti_error";
inline constexpr const char* kMetaCommandLine = "command_line";
inline constexpr const char* kMetaHost = "host";
inline constexpr const char* kMetaRank = "rank";
// The records CUPTI dropped so far (buffers full): at the end, and in a live run as it changes.
inline constexpr const char* kMetaDroppedRecords = "cupti_dropped_records";
inline constexpr const char* kMetaPid = "pid";
// $STRATA_RUN_ID as the process found it; in the first chunk (flushed right after the metadata).
inline constexpr const char* kMetaRunId = "run_id";
// The pids from the writing process up through its parents, as /proc showed them when the
// collector started ("4242 4100 1"); in the first chunk beside run_id. The launcher takes a file
// carrying its run id as the run's only if its target's pid is among them
// (core/record/run_files.h): the run id can be copied from an environment, the ancestry cannot.
inline constexpr const char* kMetaAncestry = "process_ancestry";
// With STRATA_WAIT_FOR_ATTACH: "wait-for-attach" (records kept only inside attach windows), and
// the windows so far, "START-END,START-" in ns on the trace's clock (an open one ends with the
// trace), rewritten at each start and stop.
inline constexpr const char* kMetaAttach = "attach";
inline constexpr const char* kMetaAttachWindows = "attach_windows";
// Written by the collector of a target whose launcher died first (contract/launcher_tie.h): what
// happened, with a Run record of the collector's own.
inline constexpr const char* kMetaLauncherDied = "launcher_died";
// With STRATA_GPU_METRICS: the set and interval asked for, per device what was recorded (the chip,
// the metrics, how its sample times were put on the trace's clock) or why not, and at the end the
// samples written and lost (kernels/collector/gpu_metrics/gpu_metrics.h).
inline constexpr const char* kMetaGpuMetrics = "gpu_metrics";
// With STRATA_KERNEL_METRICS: the expression, the metric count and, once the first matching
// launch's device is set up, the passes each matching launch is replayed; per device what is
// measured (the chip, the passes, the metrics it lacks) or why not; at the end the launches
// measured (kernels/collector/kernel_metrics/kernel_metrics.h).
inline constexpr const char* kMetaKernelMetrics = "kernel_metrics";
// What of Python this process recorded: "calls (CPython 3.11.2, ...)", "sample=1000 (...)", or
// "not recorded: why" (an unsupported interpreter, the target's own profiler, ...).
inline constexpr const char* kMetaPython = "python";

} // namespace strata::collector_env
