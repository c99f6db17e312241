// strata-cli idle: HTA's idle-time breakdown (host wait, kernel wait, other; core/analysis/gaps/
// idle_breakdown.h) and launch queue length (core/analysis/ops/launch_queue.h) per stream, as a
// table or (--json) one JSON object. A command of its own: its figures are per stream and under
// HTA's rule, where `gaps` explains each device gap by Strata's causes and `breakdown` splits a
// device's time by overlap; one rule per command and per JSON schema.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/idle_breakdown_json.h"
#include "analysis/ops/hta_conventions.h"
#include "model/names/time_text.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli idle [--json] [--no-series] [--kernel-delay-us N] [--queue-limit N]\n"
    "                       [--hta-steps] [--hta-us] [--range-us START:END] FILE...\n"
    "\n"
    "  --json               one JSON object: kernel_delay_us, queue_limit, not_launched,\n"
    "                       streams [{device, stream, ops, without_launch,\n"
    "                       idle {host_wait_us, kernel_wait_us, other_us, total_us,\n"
    "                       host_wait_intervals, kernel_wait_intervals, other_intervals},\n"
    "                       queue {launches, max_length, time_at_max_us, time_at_limit_us,\n"
    "                       series [[time_us, length], ...]}}], rule, load_ms, analysis_ms,\n"
    "                       with --hta-steps: hta_steps {applied, last_step_start_us, dropped};\n"
    "                       with --hta-us: hta_us true\n"
    "                       (several FILEs: {traces: [{file, ...}]}; times from the trace start)\n"
    "  --no-series          leave the queue's series out of the JSON\n"
    "  --kernel-delay-us N  HTA's consecutive_kernel_delay: an interval under N µs that is not\n"
    "                       host wait is kernel wait (default 30, HTA's 30 in its µs)\n"
    "  --queue-limit N      time_at_limit counts the time at a queue length >= N (default 1024,\n"
    "                       HTA's CUDA_MAX_LAUNCH_QUEUE_PER_STREAM)\n"
    "  --hta-steps          keep only the ops HTA keeps when it loads a trace: with two or more\n"
    "                       ProfilerStep#N, those launched before the last step starts\n"
    "  --hta-us             times cut to whole µs as HTA loads them: starts rounded up, ends\n"
    "                       down (HTA's figures on a trace with fractional µs)\n"
    "  --range-us START:END only ops that start in [START, END) µs from the trace start\n"
    "The rule (docs/analysis.md, \"HTA's idle breakdown and launch queue\"), per (device, "
    "stream):\n"
    "one interval per op after the first, its start minus the previous op's end; host wait when\n"
    "the op's launch call started after that end, kernel wait when shorter than the delay, other\n"
    "otherwise. Queue: +1 at a launch call, -1 when its op starts. Strata's own reasons for each\n"
    "gap are `strata-cli gaps`.\n";

std::string share(TimeNs part, TimeNs total) {
    char b[16];
    std::snprintf(b, sizeof b, "%5.1f%%", total > 0 ? 100.0 * double(part) / double(total) : 0.0);
    return b;
}

void printTable(const std::string& file, const IdleBreakdown& idle, const LaunchQueue& queue) {
    std::printf("%s: idle breakdown per stream (HTA's rule, kernel delay %s) and launch queue\n",
                terminalSafe(file).c_str(), formatDuration(idle.kernelDelay).c_str());
    if (idle.streams.empty()) {
        std::printf("no kernel, copy or set on a stream\n");
        return;
    }
    std::map<std::pair<int32_t, int64_t>, const StreamQueue*> queues;
    for (const StreamQueue& q : queue.streams) queues[{q.device, q.stream}] = &q;
    std::printf("%6s %8s %8s %12s %6s %12s %6s %12s %6s %7s %12s\n", "device", "stream", "ops",
                "host wait", "", "kernel wait", "", "other", "", "max q", "at max q");
    for (const StreamIdle& s : idle.streams) {
        const IdleSplit& x = s.split;
        const auto it = queues.find({s.device, s.stream});
        const StreamQueue* q = it == queues.end() ? nullptr : it->second;
        std::printf("%6d %8lld %8llu %12s %6s %12s %6s %12s %6s %7lld %12s\n", s.device,
                    static_cast<long long>(s.stream), static_cast<unsigned long long>(s.ops),
                    formatDuration(x.hostWait).c_str(), share(x.hostWait, x.total()).c_str(),
                    formatDuration(x.kernelWait).c_str(), share(x.kernelWait, x.total()).c_str(),
                    formatDuration(x.other).c_str(), share(x.other, x.total()).c_str(),
                    static_cast<long long>(q ? q->maxLength : 0),
                    formatDuration(q ? q->timeAtMax : 0).c_str());
    }
    if (queue.notLaunched)
        std::printf("%llu ops with no launch call HTA counts (cudaLaunchKernel, cudaMemcpyAsync, "
                    "...) are not in the queue\n",
                    static_cast<unsigned long long>(queue.notLaunched));
}

} // namespace

namespace strata::cli {

int idle(const Args& args) {
    bool json = false, noSeries = false, htaSteps = false, htaUs = false;
    double delayUs = double(IdleBreakdown::kDefaultKernelDelay) / 1000.0;
    uint64_t limit = LaunchQueue::kDefaultLimit;
    std::optional<std::pair<double, double>> rangeUsText;
    std::vector<std::string> files;
    CommandLine line("idle", kUsage);
    line.flag("--json", &json)
        .flag("--no-series", &noSeries)
        .flag("--hta-steps", &htaSteps)
        .flag("--hta-us", &htaUs)
        .option("--kernel-delay-us", nonNegativeNumber("--kernel-delay-us", &delayUs))
        .option("--queue-limit", wholeNumber("--queue-limit", uint64_t(1) << 40, &limit))
        .option("--range-us", rangeUs("--range-us", &rangeUsText))
        .files(&files, 1, SIZE_MAX);
    if (const auto exit = line.parse(args)) return *exit;
    if (delayUs > 1e12) return line.usageError("--kernel-delay-us is too large");
    const TimeNs delay = TimeNs(std::llround(delayUs * 1000.0));
    return forEachTrace(
        "idle", files, json, [&](const std::string& file, const Trace& trace, double) {
            const auto t0 = std::chrono::steady_clock::now();
            GpuOpList ops = collectGpuOps(trace, rangeFromUs(trace, rangeUsText));
            const HtaApplied profiled = applyHtaConventions(trace, ops, {htaSteps, htaUs});
            const IdleBreakdown idleResult = idleBreakdown(trace, ops, delay, htaUs);
            const LaunchQueue queue = launchQueue(trace, ops, int64_t(limit), htaUs);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
            if (!json) {
                printTable(file, idleResult, queue);
                if (profiled.stepsApplied)
                    std::printf(
                        "--hta-steps: %llu ops launched from the last ProfilerStep on (or with "
                        "no launch) left out\n",
                        static_cast<unsigned long long>(profiled.dropped));
                else if (htaSteps)
                    std::printf("--hta-steps: fewer than two ProfilerStep#N: every op kept\n");
                return nlohmann::json();
            }
            nlohmann::json j = idleBreakdownToJson(trace, idleResult, queue, !noSeries);
            if (htaSteps)
                j["hta_steps"] = {
                    {"applied", profiled.stepsApplied},
                    {"last_step_start_us",
                     profiled.stepsApplied
                         ? double(profiled.lastStepStart - trace.bounds().start) / 1000.0
                         : 0.0},
                    {"dropped", profiled.dropped}};
            if (htaUs) j["hta_us"] = true;
            j["analysis_ms"] = ms;
            return j;
        });
}

} // namespace strata::cli
