#pragma once
// What to record and how: the options of `strata-cli record` and of the GUI's Launch dialog.
// toCollectorEnvironment() turns them into the STRATA_* variables (contract/collector_env.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

// What of the target's Python is recorded (--python): nothing, every call and return (as
// python_function slices), or the stacks of every thread sampled at pythonSampleHz.
enum class PythonRecording : uint8_t { Off, Calls, Sample };

struct RecordOptions {
    std::vector<std::string> command; // argv; command[0] is looked up in PATH if it has no '/'
    std::string output;               // path template ({pid} {rank} {host}); empty = default
    // Overwrite an existing file at `output`: one no live recording holds, a regular file, never
    // through a symbolic link ($STRATA_OVERWRITE for the collector; io/strata/strata_file_create.h)
    bool force = false;
    std::vector<std::string> capture; // activity groups (captureGroups()); empty = all
    uint64_t bufferSize = 0;          // CUPTI buffer bytes; 0 = collector default
    // Schedule in steps (-1 = not set). Setting any of them enables the schedule.
    int wait = -1;
    int warmup = -1;
    int active = -1;
    int repeat = -1;
    std::string stepName;     // NVTX range/mark that delimits steps
    std::string captureRange; // NVTX range name that gates capture, or "cudaProfilerApi"
    double durationS = 0;     // stop capturing after this many seconds; 0 = no limit
    int flushMs = 0;          // collector flush interval; 0 = collector default (200 ms)
    // A live run: the collector hands its records to the file every flush ($STRATA_LIVE).
    bool live = false;
    std::string collector;        // explicit collector .so; empty = search (see findCollector)
    std::string workingDirectory; // empty = the launcher's
    std::vector<std::pair<std::string, std::string>> extraEnvironment; // set in the target
    std::vector<std::string> removedEnvironment; // variables unset in the target
    // The target's stdout and stderr go to two pipes (Launcher::outputFd, errorFd) instead of
    // the launcher's own: for the GUI's live console. stdin is /dev/null then.
    bool captureOutput = false;
    // false: run the target as it is, without the collector (no CUDA toolkit when Strata was
    // built, or the user's choice); the run is still recorded (a Run record, Launcher::finish).
    bool inject = true;
    // true: the target leads a process group of its own, so Stop and forwarded signals reach
    // its children too (core/record/process_group.h). false: it stays in the launcher's group
    // (strata-cli record as a terminal's foreground job: Ctrl-C, Ctrl-Z and terminal reads then
    // work for the whole job as the shell set it up).
    bool ownProcessGroup = true;
    // Python's call hierarchy (docs/recording.md, "Python"): sampled at 1 kHz by default, in
    // every Python process of the run; nothing happens in a process that is not Python.
    PythonRecording python = PythonRecording::Sample;
    int pythonSampleHz = 1000;
    // Native stacks of every thread sampled at this rate (--cpu-sample[=HZ]); 0 = off.
    int cpuSampleHz = 0;
    // --gpu-metrics[=SET]: GPU hardware counters over time through CUPTI's PM sampling
    // ($STRATA_GPU_METRICS): "default" or a comma list of CUPTI metric names; empty = off.
    std::string gpuMetrics;
    // --gpu-metrics-interval-us N: the sampling interval (1..1000000 us).
    int gpuMetricsIntervalUs = 100;
    // --kernel-metrics REGEX: the launches of the kernels whose demangled name this ECMAScript
    // expression matches are measured with CUPTI's range profiler, each serialised and replayed
    // once per pass ($STRATA_KERNEL_METRICS); empty = off.
    std::string kernelMetrics;
    // --kernel-metrics-set LIST: "default" or a comma list of CUPTI metric names
    // ($STRATA_KERNEL_METRICS_SET); empty = the default set.
    std::string kernelMetricsSet;
    // --wait-for-attach: the collector keeps nothing until `strata-cli attach --start` and only
    // between each start and its stop ($STRATA_WAIT_FOR_ATTACH; contract/attach_registry.h).
    // CUDA's records only: Python and native sampling must be off.
    bool waitForAttach = false;
};

// Parses --python's value: off, calls, sample or sample=HZ (1..10000).
bool parsePythonRecording(std::string_view text, RecordOptions* options, std::string* error);
// "off", "calls" or "sample=HZ": what parsePythonRecording reads back.
std::string pythonRecordingText(const RecordOptions& options);

// Checks --gpu-metrics' SET: "default" or CUPTI metric names (letters, digits, '_', '.'),
// comma-separated; on a bad item returns false and says which.
bool validGpuMetricSet(std::string_view set, std::string* error);

// Checks --kernel-metrics' REGEX (an ECMAScript regular expression, not empty) and
// --kernel-metrics-set's LIST (as --gpu-metrics' SET); on a bad one returns false and says why.
bool validKernelMetrics(std::string_view regex, std::string_view set, std::string* error);

// The activity groups --capture accepts: api,nvtx,kernels,memcpy,memset,sync,memory.
const std::vector<std::string_view>& captureGroups();
// Parses "api,kernels" (also "all"); on an unknown name returns false and says which.
bool parseCaptureList(std::string_view list, std::vector<std::string>* out, std::string* error);
// Checks ranges and combinations (e.g. a schedule needs --active and a --step-name).
bool validateRecordOptions(const RecordOptions& options, std::string* error);

// The options as strata-cli record reads them back (all but -o and the command): what a remote
// run passes on (record/remote_record.h). Defaults are left out.
std::vector<std::string> recordArguments(const RecordOptions& options);

// The STRATA_* variables for these options (output template already chosen by the caller).
std::vector<std::pair<std::string, std::string>>
toCollectorEnvironment(const RecordOptions& options, const std::string& outputTemplate);

} // namespace strata
